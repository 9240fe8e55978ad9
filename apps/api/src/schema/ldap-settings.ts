// A directory provider's settings as the settings page reads and writes them (never secret: the
// service account's password is the provider's write-only secret).
import type { LdapSettings } from "../identity/ldap-settings.ts";
import { builder } from "./builder.ts";

export const LdapSettingsRef = builder.objectRef<LdapSettings>("LdapSettings").implement({
  description: "How an LDAP or Active Directory provider is reached and read (docs/operations.md).",
  fields: (t) => ({
    url: t.exposeString("url"),
    startTls: t.exposeBoolean("startTls"),
    allowUnencrypted: t.exposeBoolean("allowUnencrypted"),
    caPem: t.string({ nullable: true, resolve: (s) => s.caPem ?? null }),
    bindDn: t.exposeString("bindDn"),
    userBaseDn: t.exposeString("userBaseDn"),
    userFilter: t.exposeString("userFilter"),
    subjectAttribute: t.exposeString("subjectAttribute"),
    usernameAttribute: t.exposeString("usernameAttribute"),
    emailAttribute: t.exposeString("emailAttribute"),
    groupMembership: t.exposeString("groupMembership"),
    memberOfAttribute: t.exposeString("memberOfAttribute"),
    groupBaseDn: t.string({ nullable: true, resolve: (s) => s.groupBaseDn ?? null }),
    groupFilter: t.exposeString("groupFilter"),
    timeoutMs: t.exposeInt("timeoutMs"),
  }),
});

export const LdapSettingsInput = builder.inputType("LdapSettingsInput", {
  description: "Omitted fields take their defaults (docs/operations.md).",
  fields: (t) => ({
    url: t.string({ required: true }),
    startTls: t.boolean({ required: false }),
    allowUnencrypted: t.boolean({ required: false }),
    caPem: t.string({ required: false }),
    bindDn: t.string({ required: true }),
    userBaseDn: t.string({ required: true }),
    userFilter: t.string({ required: false }),
    subjectAttribute: t.string({ required: false }),
    usernameAttribute: t.string({ required: false }),
    emailAttribute: t.string({ required: false }),
    groupMembership: t.string({ required: false, description: "memberOf or search" }),
    memberOfAttribute: t.string({ required: false }),
    groupBaseDn: t.string({ required: false }),
    groupFilter: t.string({ required: false }),
    timeoutMs: t.int({ required: false }),
  }),
});
