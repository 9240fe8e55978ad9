// Identity providers: the public list the sign-in page shows, the password sign-in setting, and
// provider management (MANAGE_USERS). Secrets are write-only; the environment's providers are
// listed but not editable here.
import { CAPABILITIES, type Capability } from "@hyperlens/shared";
import type { Context } from "../context.ts";
import { ValidationError } from "../errors.ts";
import { isLocalPasswordSignInEnabled, setLocalPasswordSignIn } from "../identity/local-sign-in.ts";
import { redirectUri } from "../identity/oidc.ts";
import {
  type GroupMapping,
  IDENTITY_PROVIDER_KINDS,
  type IdentityProviderConfig,
  type OidcSettings,
} from "../identity/provider-config.ts";
import {
  createIdentityProvider,
  deleteIdentityProvider,
  type IdentityProviderInput,
  listIdentityProviders,
  type ProviderSources,
  updateIdentityProvider,
} from "../identity/providers.ts";
import { builder } from "./builder.ts";
import { LdapSettingsInput, LdapSettingsRef } from "./ldap-settings.ts";
import { CapabilityEnum } from "./viewer.ts";

const sourcesOf = (ctx: Context): ProviderSources => ({
  prisma: ctx.prisma,
  secrets: ctx.secrets,
  environmentProviders: ctx.environmentProviders,
});

export const IdentityProviderKindEnum = builder.enumType("IdentityProviderKind", {
  description: "How a provider proves who signs in: OpenID Connect, or an LDAP directory.",
  values: IDENTITY_PROVIDER_KINDS,
});

const SignInProviderRef = builder.objectRef<IdentityProviderConfig>("SignInProvider").implement({
  description:
    "An enabled provider as the sign-in page shows it: a name and short logo text, never an address or client id.",
  fields: (t) => ({
    slug: t.exposeString("slug"),
    kind: t.field({ type: IdentityProviderKindEnum, resolve: (p) => p.kind }),
    displayName: t.exposeString("displayName"),
    logoText: t.string({ nullable: true, resolve: (p) => p.logoText ?? null }),
  }),
});

const GroupMappingRef = builder.objectRef<GroupMapping>("GroupMapping").implement({
  description:
    "Members of `group` (as the provider names it) get these at each sign-in; several matching mappings add up.",
  fields: (t) => ({
    group: t.exposeString("group"),
    capabilities: t.field({ type: [CapabilityEnum], resolve: (m) => m.capabilities }),
    isAdmin: t.exposeBoolean("isAdmin"),
    allConnections: t.exposeBoolean("allConnections"),
    connectionGroups: t.exposeStringList("connectionGroups"),
  }),
});

const OidcSettingsRef = builder.objectRef<OidcSettings>("OidcSettings").implement({
  fields: (t) => ({
    issuer: t.exposeString("issuer"),
    clientId: t.exposeString("clientId"),
    scopes: t.exposeString("scopes"),
    subjectClaim: t.exposeString("subjectClaim"),
    usernameClaim: t.exposeString("usernameClaim"),
    emailClaim: t.exposeString("emailClaim"),
    groupsClaim: t.exposeString("groupsClaim"),
  }),
});

export const IdentityProviderRef = builder
  .objectRef<IdentityProviderConfig>("IdentityProvider")
  .implement({
    description: "A single sign-on or directory provider. Its secret is never returned.",
    authScopes: { MANAGE_USERS: true },
    fields: (t) => ({
      slug: t.exposeString("slug"),
      kind: t.field({ type: IdentityProviderKindEnum, resolve: (p) => p.kind }),
      displayName: t.exposeString("displayName"),
      logoText: t.string({ nullable: true, resolve: (p) => p.logoText ?? null }),
      isEnabled: t.exposeBoolean("isEnabled"),
      createJustInTime: t.exposeBoolean("createJustInTime"),
      isReadOnly: t.boolean({
        description: "Configured in HYPERLENS_IDENTITY_PROVIDERS: change it there.",
        resolve: (p) => p.source === "ENVIRONMENT",
      }),
      hasSecret: t.boolean({
        description: "Whether a client secret or bind password is stored. It is never returned.",
        resolve: (p) => p.hasSecret,
      }),
      groupMappings: t.field({ type: [GroupMappingRef], resolve: (p) => p.groupMappings }),
      ldap: t.field({
        type: LdapSettingsRef,
        nullable: true,
        resolve: (p) => (p.kind === "LDAP" ? p.settings : null),
      }),
      redirectUri: t.string({
        nullable: true,
        description:
          "OpenID Connect: the redirect URI to register at the provider; null without HYPERLENS_PUBLIC_URL.",
        resolve: (p, _args, ctx) =>
          p.kind === "OIDC" && ctx.publicUrl ? redirectUri(ctx.publicUrl, p.slug) : null,
      }),
      oidc: t.field({
        type: OidcSettingsRef,
        nullable: true,
        resolve: (p) => (p.kind === "OIDC" ? p.settings : null),
      }),
    }),
  });

const GroupMappingInput = builder.inputType("GroupMappingInput", {
  fields: (t) => ({
    group: t.string({ required: true }),
    capabilities: t.field({ type: [CapabilityEnum], required: true }),
    isAdmin: t.boolean({ required: false }),
    allConnections: t.boolean({ required: false }),
    connectionGroups: t.stringList({ required: false }),
  }),
});

const OidcSettingsInput = builder.inputType("OidcSettingsInput", {
  fields: (t) => ({
    issuer: t.string({ required: true }),
    clientId: t.string({ required: true }),
    scopes: t.string({ required: false }),
    subjectClaim: t.string({ required: false }),
    usernameClaim: t.string({ required: false }),
    emailClaim: t.string({ required: false }),
    groupsClaim: t.string({ required: false }),
  }),
});

const IdentityProviderInputRef = builder.inputType("IdentityProviderInput", {
  fields: (t) => ({
    slug: t.string({ required: true }),
    kind: t.field({ type: IdentityProviderKindEnum, required: true }),
    displayName: t.string({ required: true }),
    logoText: t.string({ required: false }),
    isEnabled: t.boolean({ required: true }),
    createJustInTime: t.boolean({ required: true }),
    groupMappings: t.field({ type: [GroupMappingInput], required: true }),
    oidc: t.field({ type: OidcSettingsInput, required: false }),
    ldap: t.field({ type: LdapSettingsInput, required: false }),
    secret: t.string({
      required: false,
      description: "Write-only. Blank keeps the stored secret on edit.",
    }),
    clearSecret: t.boolean({ required: false }),
  }),
});

type ProviderInputArgs = typeof IdentityProviderInputRef.$inferInput;

const withoutNulls = (value: Record<string, unknown> | null | undefined) =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== null && v !== undefined));

function providerInput(input: ProviderInputArgs): IdentityProviderInput {
  if (input.kind === "OIDC" && !input.oidc)
    throw new ValidationError("Give the OpenID Connect settings.", "oidc");
  if (input.kind === "LDAP" && !input.ldap)
    throw new ValidationError("Give the directory's settings.", "ldap");
  return {
    slug: input.slug.trim(),
    kind: input.kind,
    displayName: input.displayName,
    logoText: input.logoText,
    isEnabled: input.isEnabled,
    createJustInTime: input.createJustInTime,
    groupMappings: input.groupMappings.map((m) => ({
      group: m.group,
      capabilities: [
        ...new Set<Capability>(m.capabilities.filter((c) => CAPABILITIES.includes(c))),
      ],
      isAdmin: m.isAdmin ?? false,
      allConnections: m.allConnections ?? false,
      connectionGroups: m.connectionGroups ?? [],
    })),
    settings: withoutNulls(input.kind === "OIDC" ? input.oidc : input.ldap),
    secret: input.secret,
    clearSecret: input.clearSecret,
  };
}

builder.queryFields((t) => ({
  signInProviders: t.field({
    type: [SignInProviderRef],
    description: "The enabled providers the sign-in page offers. Public.",
    resolve: async (_root, _args, ctx) =>
      (await listIdentityProviders(sourcesOf(ctx))).filter((p) => p.isEnabled),
  }),
  isLocalPasswordSignInEnabled: t.boolean({
    description:
      "Whether people sign in with a Hyperlens password; when false, only administrators still may. Public.",
    resolve: (_root, _args, ctx) => isLocalPasswordSignInEnabled(ctx.prisma),
  }),
  identityProviders: t.field({
    type: [IdentityProviderRef],
    authScopes: { MANAGE_USERS: true },
    resolve: (_root, _args, ctx) => listIdentityProviders(sourcesOf(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  setLocalPasswordSignIn: t.boolean({
    description:
      "Turns password sign-in on or off. Administrators keep it either way (the way back in when a provider fails).",
    authScopes: { MANAGE_USERS: true },
    args: { isEnabled: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => setLocalPasswordSignIn(ctx.prisma, args.isEnabled, ctx.viewer),
  }),
  createIdentityProvider: t.field({
    type: IdentityProviderRef,
    authScopes: { MANAGE_USERS: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: IdentityProviderInputRef, required: true }) },
    resolve: (_root, args, ctx) =>
      createIdentityProvider(sourcesOf(ctx), providerInput(args.input), ctx.viewer),
  }),
  updateIdentityProvider: t.field({
    type: IdentityProviderRef,
    description: "Edits the provider with `input.slug`; its kind stays.",
    authScopes: { MANAGE_USERS: true },
    errors: { types: [ValidationError] },
    args: { input: t.arg({ type: IdentityProviderInputRef, required: true }) },
    resolve: (_root, args, ctx) =>
      updateIdentityProvider(sourcesOf(ctx), providerInput(args.input), ctx.viewer),
  }),
  deleteIdentityProvider: t.boolean({
    description:
      "Deletes a provider. The accounts it created stay; disable or delete them on the Users page.",
    authScopes: { MANAGE_USERS: true },
    errors: { types: [ValidationError] },
    args: { slug: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await deleteIdentityProvider(sourcesOf(ctx), args.slug, ctx.viewer);
      return true;
    },
  }),
}));
