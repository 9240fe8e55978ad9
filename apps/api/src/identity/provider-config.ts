// Identity providers (single sign-on with OpenID Connect, directories over LDAP): what a provider
// is, whichever of its two homes it comes from — the environment (read-only, HYPERLENS_IDENTITY_PROVIDERS)
// or the identity_providers table (the settings page). Kinds share the fields below; each kind
// has its own `settings` shape, validated here so a wrong value is named at boot or at save.
import { CAPABILITIES, type Capability } from "@hyperlens/shared";
import { z } from "zod";
import { type LdapSettings, ldapSettingsSchema } from "./ldap-settings.ts";

/** The kinds of identity provider, as the database enum spells them. */
export const IDENTITY_PROVIDER_KINDS = ["OIDC", "LDAP"] as const;
export type IdentityProviderKind = (typeof IDENTITY_PROVIDER_KINDS)[number];

/** Lower-case letters, digits and dashes: the slug is part of sign-in URLs and UserIdentity.provider. */
export const providerSlug = z
  .string()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/,
    "must be 1-32 lower-case letters, digits or dashes, not starting or ending with a dash",
  );

/** One group mapping: members of `group` (as the provider names it, compared exactly) get these. */
export const groupMappingSchema = z.object({
  group: z.string().trim().min(1, "must name a group").max(512, "is too long"),
  capabilities: z.array(z.enum(CAPABILITIES, { error: "is not a capability" })).default([]),
  isAdmin: z.boolean().default(false),
  allConnections: z.boolean().default(false),
  /** Connection group names; a name no group has is skipped at sign-in (and noted in the audit log). */
  connectionGroups: z.array(z.string().trim().min(1).max(128)).default([]),
});
export type GroupMapping = z.infer<typeof groupMappingSchema>;

export const groupMappingsSchema = z.array(groupMappingSchema).max(200, "at most 200 mappings");

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * An issuer: https, or http on loopback only (a lab or a test provider on this machine) — the
 * discovery document and keys travel over it, so plain http across a network would let anyone on
 * the path sign in as anyone.
 */
const issuerUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    if (url.username || url.password || url.search || url.hash) return false;
    return (
      url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))
    );
  } catch {
    return false;
  }
}, "must be the issuer's https address, like https://sso.example.com/realms/main (http only on localhost)");

const claimName = z
  .string()
  .regex(/^[A-Za-z0-9_:./-]{1,128}$/, "must be a claim name like groups or roles");

/** OpenID Connect settings (never secret; the client secret is stored apart). */
export const oidcSettingsSchema = z.object({
  issuer: issuerUrl,
  clientId: z.string().trim().min(1, "must be given").max(512, "is too long"),
  /** Space-separated; `openid` is always asked for. */
  scopes: z
    .string()
    .regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, "must be scope names separated by single spaces")
    .max(1024)
    .default("openid profile email"),
  /** The claim that identifies the person for good; `sub` unless the provider says otherwise. */
  subjectClaim: claimName.default("sub"),
  usernameClaim: claimName.default("preferred_username"),
  emailClaim: claimName.default("email"),
  /** An array of names or one string (space- or comma-separated). */
  groupsClaim: claimName.default("groups"),
});
export type OidcSettings = z.infer<typeof oidcSettingsSchema>;

/** LDAP settings: the directory client's own schema (identity/ldap-settings.ts). */
export { type LdapSettings, ldapSettingsSchema } from "./ldap-settings.ts";

/** Each kind's settings schema. */
export const PROVIDER_SETTINGS_SCHEMAS = {
  OIDC: oidcSettingsSchema,
  LDAP: ldapSettingsSchema,
} as const satisfies Record<IdentityProviderKind, z.ZodType>;

/** Short text shown on the sign-in button beside the name (initials, an emoji); never a URL. */
export const logoText = z
  .string()
  .trim()
  .refine(
    (value) => value.length <= 8 && !/[/:]/.test(value),
    "must be at most 8 characters (initials, an emoji), not an address",
  )
  .optional();

/** The fields every kind shares. */
const commonFields = {
  slug: providerSlug,
  displayName: z.string().trim().min(1, "must be given").max(64, "must be at most 64 characters"),
  logoText,
  isEnabled: z.boolean().default(true),
  createJustInTime: z.boolean().default(false),
  groupMappings: groupMappingsSchema.default([]),
};

/** One provider as HYPERLENS_IDENTITY_PROVIDERS lists it. */
export const environmentProviderSchema = z.discriminatedUnion("kind", [
  z.object({
    ...commonFields,
    kind: z.literal("OIDC"),
    settings: oidcSettingsSchema,
    /** The client secret; none for a public client. */
    secret: z.string().min(1).max(4096).optional(),
  }),
  z.object({
    ...commonFields,
    kind: z.literal("LDAP"),
    settings: ldapSettingsSchema,
    /** The bind password. */
    secret: z.string().min(1).max(4096).optional(),
  }),
]);

/** A provider, resolved from either home, with its secret opened when one is stored. */
export type IdentityProviderConfig = {
  /** Where it is configured: the environment's are read-only in the UI. */
  source: "ENVIRONMENT" | "DATABASE";
  /** The identity_providers row; undefined for the environment's. */
  id: string | undefined;
  slug: string;
  displayName: string;
  logoText: string | undefined;
  isEnabled: boolean;
  createJustInTime: boolean;
  groupMappings: GroupMapping[];
  /** Whether a secret is configured; `secret()` opens it (only the code that sends it calls that). */
  hasSecret: boolean;
  secret(): string | undefined;
} & ({ kind: "OIDC"; settings: OidcSettings } | { kind: "LDAP"; settings: LdapSettings });

/** Problems with HYPERLENS_IDENTITY_PROVIDERS, one line each, secrets never echoed. */
export function parseEnvironmentProviders(text: string | undefined): {
  providers: IdentityProviderConfig[];
  problems: string[];
} {
  if (text === undefined || text.trim() === "") return { providers: [], problems: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      providers: [],
      problems: ['must be a JSON array of providers, like [{"slug":"sso","kind":"OIDC",...}]'],
    };
  }
  const parsed = z.array(environmentProviderSchema).safeParse(json);
  if (!parsed.success) {
    return {
      providers: [],
      problems: parsed.error.issues.map(
        (issue) => `${issue.path.length ? `[${issue.path.join(".")}] ` : ""}${issue.message}`,
      ),
    };
  }
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const p of parsed.data) {
    if (seen.has(p.slug)) problems.push(`the slug ${p.slug} is used twice`);
    seen.add(p.slug);
  }
  const providers = parsed.data.map((p): IdentityProviderConfig => {
    const common = {
      source: "ENVIRONMENT" as const,
      id: undefined,
      slug: p.slug,
      displayName: p.displayName,
      logoText: p.logoText || undefined,
      isEnabled: p.isEnabled,
      createJustInTime: p.createJustInTime,
      groupMappings: p.groupMappings,
      hasSecret: p.secret !== undefined,
      secret: () => p.secret,
    };
    return p.kind === "OIDC"
      ? { ...common, kind: "OIDC", settings: p.settings }
      : { ...common, kind: "LDAP", settings: p.settings };
  });
  return { providers, problems };
}

/** The capabilities, admin flag and connection access a set of provider groups maps to. */
export interface MappedAccess {
  capabilities: Capability[];
  isAdmin: boolean;
  allConnections: boolean;
  connectionGroups: string[];
  /** The mapped group names that matched, for the audit log. */
  matchedGroups: string[];
}

/**
 * The union of every mapping whose group the person is in. No matching mapping: no capabilities
 * and no connections (docs/behaviour.md §12).
 */
export function mapGroups(
  mappings: readonly GroupMapping[],
  groups: readonly string[],
): MappedAccess {
  const memberOf = new Set(groups);
  const capabilities = new Set<Capability>();
  const connectionGroups = new Set<string>();
  const matchedGroups: string[] = [];
  let isAdmin = false;
  let allConnections = false;
  for (const mapping of mappings) {
    if (!memberOf.has(mapping.group)) continue;
    matchedGroups.push(mapping.group);
    for (const c of mapping.capabilities) capabilities.add(c);
    for (const g of mapping.connectionGroups) connectionGroups.add(g);
    isAdmin ||= mapping.isAdmin;
    allConnections ||= mapping.allConnections;
  }
  return {
    capabilities: CAPABILITIES.filter((c) => capabilities.has(c)),
    isAdmin,
    allConnections,
    connectionGroups: [...connectionGroups].sort(),
    matchedGroups,
  };
}
