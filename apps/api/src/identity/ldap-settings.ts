// An LDAP / Active Directory provider's settings (never secret: the service account's password is
// the provider's sealed secret). Validated at boot for the environment's providers and at save for
// the settings page's, so a wrong value is named before anyone tries to sign in.
import { z } from "zod";

/** The placeholder a user search filter puts the typed user name in (escaped per RFC 4515). */
export const USERNAME_PLACEHOLDER = "{username}";
/** The placeholder a group search filter puts the user's DN in (escaped per RFC 4515). */
export const DN_PLACEHOLDER = "{dn}";

const directoryUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (
      (url.protocol === "ldap:" || url.protocol === "ldaps:") &&
      url.hostname !== "" &&
      !url.username &&
      !url.password &&
      (url.pathname === "" || url.pathname === "/") &&
      !url.search &&
      !url.hash
    );
  } catch {
    return false;
  }
}, "must be the directory's address, like ldaps://dc1.example.com or ldap://ldap.example.com:389");

const attributeName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9-]{0,63}$/, "must be an attribute name like uid or sAMAccountName");

/** A filter with balanced parentheses around the whole, holding its placeholder exactly once. */
function filterWith(placeholder: string, example: string) {
  return z
    .string()
    .trim()
    .max(1024, "is too long")
    .refine(
      (value) => value.startsWith("(") && value.endsWith(")") && isBalanced(value),
      `must be an LDAP filter in parentheses, like ${example}`,
    )
    .refine(
      (value) => value.split(placeholder).length === 2,
      `must hold ${placeholder} exactly once, like ${example}`,
    );
}

function isBalanced(filter: string): boolean {
  let depth = 0;
  for (const char of filter) {
    depth += char === "(" ? 1 : char === ")" ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/**
 * How the directory is reached and read. Transport: ldaps:// is TLS from the first byte;
 * ldap:// upgrades with StartTLS unless `allowUnencrypted` says it may not — then passwords cross
 * the network in clear text, for a lab only (docs/operations.md). Certificates are always verified,
 * against `caPem` when given, else the system's trusted authorities.
 */
export const ldapSettingsSchema = z
  .object({
    url: directoryUrl,
    /** ldap:// only: upgrade with StartTLS before binding (default). */
    startTls: z.boolean().default(true),
    /** ldap:// without StartTLS: passwords travel in clear text. Must be said explicitly. */
    allowUnencrypted: z.boolean().default(false),
    /** PEM of the authority that signed the directory's certificate; the system's when absent. */
    caPem: z
      .string()
      .max(65_536, "is too long")
      .refine((v) => v.includes("-----BEGIN CERTIFICATE-----"), "must be a PEM certificate")
      .optional(),
    /** The service account that searches for users (its password is the provider's secret). */
    bindDn: z.string().trim().min(1, "must be given").max(1024, "is too long"),
    /** Where users are searched (the whole subtree). */
    userBaseDn: z.string().trim().min(1, "must be given").max(1024, "is too long"),
    userFilter: filterWith(USERNAME_PLACEHOLDER, "(&(objectClass=person)(uid={username}))").default(
      "(&(objectClass=person)(uid={username}))",
    ),
    /** The attribute that names a person for good: entryUUID (OpenLDAP), objectGUID (AD). Never the DN. */
    subjectAttribute: attributeName.default("entryUUID"),
    usernameAttribute: attributeName.default("uid"),
    emailAttribute: attributeName.default("mail"),
    /**
     * memberOf: the user entry's attribute lists the groups' DNs (Active Directory, OpenLDAP with
     * memberof or dynlist). search: groups are searched with `groupFilter`.
     */
    groupMembership: z.enum(["memberOf", "search"]).default("memberOf"),
    memberOfAttribute: attributeName.default("memberOf"),
    /** search only: where groups are searched; the user base when absent. */
    groupBaseDn: z.string().trim().min(1).max(1024, "is too long").optional(),
    groupFilter: filterWith(DN_PLACEHOLDER, "(&(objectClass=groupOfNames)(member={dn}))").default(
      "(&(objectClass=groupOfNames)(member={dn}))",
    ),
    /** How long one connection, bind or search may take. */
    timeoutMs: z.number().int().min(500).max(60_000).default(5000),
  })
  .refine((s) => !s.url.startsWith("ldap:") || s.startTls || s.allowUnencrypted, {
    path: ["allowUnencrypted"],
    message:
      "ldap:// without StartTLS sends passwords in clear text: use ldaps:// or StartTLS, or set allowUnencrypted to say you accept that",
  });

/** An LDAP provider's settings, defaults filled in. */
export type LdapSettings = z.infer<typeof ldapSettingsSchema>;
