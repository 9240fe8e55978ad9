// The provider registry: the environment's providers (read-only) and the identity_providers
// table's (the settings page), one list with one slug space. Secrets of stored providers are
// sealed with the secret box, as connection secrets are, and opened only when sent.
import type { IdentityProvider, Prisma, PrismaClient, SecretBox } from "@hyperlens/db";
import type { Viewer } from "../auth/viewer.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { recordAudit } from "../services/audit.ts";
import {
  type GroupMapping,
  groupMappingsSchema,
  type IdentityProviderConfig,
  type IdentityProviderKind,
  logoText,
  PROVIDER_SETTINGS_SCHEMAS,
  providerSlug,
} from "./provider-config.ts";

/** What the registry reads providers from. */
export interface ProviderSources {
  prisma: PrismaClient;
  secrets: SecretBox;
  /** HYPERLENS_IDENTITY_PROVIDERS, parsed at boot. */
  environmentProviders: readonly IdentityProviderConfig[];
}

/** The associated data a provider's secret is sealed with: it opens for this row only. */
export function providerSecretContext(providerId: string): string {
  return `identity-provider:${providerId}`;
}

function fromRow(row: IdentityProvider, secrets: SecretBox): IdentityProviderConfig {
  const settings = (row.settings ?? {}) as Record<string, unknown>;
  const { logoText: logo, ...kindSettings } = settings;
  const common = {
    source: "DATABASE" as const,
    id: row.id,
    slug: row.slug,
    displayName: row.displayName,
    logoText: typeof logo === "string" && logo !== "" ? logo : undefined,
    isEnabled: row.isEnabled,
    createJustInTime: row.createJustInTime,
    groupMappings: groupMappingsSchema.catch([]).parse(row.groupMappings),
    hasSecret: row.secretCiphertext !== null,
    secret: () =>
      row.secretCiphertext === null
        ? undefined
        : secrets.open(row.secretCiphertext, providerSecretContext(row.id)),
  };
  // Rows were validated at save; defaults fill settings added by a later release.
  return row.kind === "OIDC"
    ? { ...common, kind: "OIDC", settings: PROVIDER_SETTINGS_SCHEMAS.OIDC.parse(kindSettings) }
    : { ...common, kind: "LDAP", settings: PROVIDER_SETTINGS_SCHEMAS.LDAP.parse(kindSettings) };
}

/** Every provider, the environment's first, then the table's by slug. */
export async function listIdentityProviders(
  sources: ProviderSources,
): Promise<IdentityProviderConfig[]> {
  const rows = await sources.prisma.identityProvider.findMany({ orderBy: { slug: "asc" } });
  const fromEnvironment = new Set(sources.environmentProviders.map((p) => p.slug));
  return [
    ...sources.environmentProviders,
    // The environment wins a slug both name (a row saved before the variable was set).
    ...rows.filter((r) => !fromEnvironment.has(r.slug)).map((r) => fromRow(r, sources.secrets)),
  ];
}

/** The provider with this slug, enabled or not; null when none has it. */
export async function findIdentityProvider(
  sources: ProviderSources,
  slug: string,
): Promise<IdentityProviderConfig | null> {
  const fromEnvironment = sources.environmentProviders.find((p) => p.slug === slug);
  if (fromEnvironment) return fromEnvironment;
  if (!providerSlug.safeParse(slug).success) return null;
  const row = await sources.prisma.identityProvider.findUnique({ where: { slug } });
  return row ? fromRow(row, sources.secrets) : null;
}

/** A provider to save from the settings page. */
export interface IdentityProviderInput {
  slug: string;
  kind: IdentityProviderKind;
  displayName: string;
  logoText?: string | null | undefined;
  isEnabled: boolean;
  createJustInTime: boolean;
  groupMappings: readonly GroupMapping[];
  settings: Record<string, unknown>;
  /** Write-only. Absent, null or blank keeps the stored one; `clearSecret` removes it. */
  secret?: string | null | undefined;
  clearSecret?: boolean | null | undefined;
}

function problemsOf(error: { issues: { path: PropertyKey[]; message: string }[] }, prefix: string) {
  return error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join("."),
    message: issue.message,
  }));
}

function validate(input: IdentityProviderInput) {
  const problems: { field: string; message: string }[] = [];
  const slug = providerSlug.safeParse(input.slug);
  if (!slug.success) problems.push(...problemsOf(slug.error, "slug"));
  const displayName = input.displayName.trim();
  if (!displayName || displayName.length > 64)
    problems.push({ field: "displayName", message: "Give a name of 1-64 characters." });
  const logo = logoText.safeParse(input.logoText ?? undefined);
  if (!logo.success) problems.push(...problemsOf(logo.error, "logoText"));
  const mappings = groupMappingsSchema.safeParse(input.groupMappings);
  if (!mappings.success) problems.push(...problemsOf(mappings.error, "groupMappings"));
  const settings = PROVIDER_SETTINGS_SCHEMAS[input.kind].safeParse(input.settings);
  if (!settings.success) problems.push(...problemsOf(settings.error, "settings"));
  if (input.secret && input.secret.length > 4096)
    problems.push({ field: "secret", message: "The secret is too long." });
  if (problems.length || !settings.success || !mappings.success || !logo.success)
    throw ValidationError.of(problems);
  return {
    displayName,
    settings: { ...settings.data, ...(logo.data ? { logoText: logo.data } : {}) },
    groupMappings: mappings.data,
  };
}

/** The settings that say where a secret goes; a kept secret may not be pointed elsewhere. */
function secretTarget(kind: IdentityProviderKind, settings: Record<string, unknown>): string {
  return kind === "OIDC"
    ? JSON.stringify([settings.issuer, settings.clientId])
    : JSON.stringify([settings.url, settings.bindDn]);
}

function refuseEnvironmentSlug(sources: ProviderSources, slug: string) {
  if (sources.environmentProviders.some((p) => p.slug === slug))
    throw new ValidationError(
      `The provider ${slug} is configured in HYPERLENS_IDENTITY_PROVIDERS; change it there.`,
      "slug",
    );
}

/** Creates a provider; its slug must be new (in the table and in the environment). */
export async function createIdentityProvider(
  sources: ProviderSources,
  input: IdentityProviderInput,
  actor: Viewer | null,
): Promise<IdentityProviderConfig> {
  const valid = validate(input);
  refuseEnvironmentSlug(sources, input.slug);
  const { prisma, secrets } = sources;
  if (await prisma.identityProvider.findUnique({ where: { slug: input.slug } }))
    throw new ValidationError(`A provider with the slug ${input.slug} already exists.`, "slug");
  const secret = input.secret?.trim() ? input.secret : undefined;
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.identityProvider.create({
      data: {
        slug: input.slug,
        kind: input.kind,
        displayName: valid.displayName,
        isEnabled: input.isEnabled,
        createJustInTime: input.createJustInTime,
        settings: valid.settings as Prisma.InputJsonValue,
        groupMappings: valid.groupMappings as unknown as Prisma.InputJsonValue,
      },
    });
    const sealed = secret ? secrets.seal(secret, providerSecretContext(created.id)) : undefined;
    const row = sealed
      ? await tx.identityProvider.update({
          where: { id: created.id },
          data: { secretCiphertext: sealed.ciphertext, secretKeyId: sealed.keyId },
        })
      : created;
    await recordAudit(tx, actor, {
      action: "identity_provider.create",
      targetType: "identity_provider",
      targetId: row.id,
      details: { slug: row.slug, kind: row.kind, secretChanged: secret !== undefined },
    });
    return row;
  });
  return fromRow(row, secrets);
}

/** Edits a stored provider (found by slug; the slug and kind stay). */
export async function updateIdentityProvider(
  sources: ProviderSources,
  input: IdentityProviderInput,
  actor: Viewer | null,
): Promise<IdentityProviderConfig> {
  refuseEnvironmentSlug(sources, input.slug);
  const { prisma, secrets } = sources;
  const existing = await prisma.identityProvider.findUnique({ where: { slug: input.slug } });
  if (!existing) throw new NotFoundError(`No provider has the slug ${input.slug}.`);
  const valid = validate({ ...input, kind: existing.kind });
  const secret = input.secret?.trim() ? input.secret : undefined;
  const isSecretKept = secret === undefined && !input.clearSecret;
  // TRAP: docs/behaviour.md §12 — a kept client secret or bind password re-pointed at another issuer or
  // directory would be sent there: the one who changes where it goes must give it again.
  if (
    isSecretKept &&
    existing.secretCiphertext !== null &&
    secretTarget(existing.kind, existing.settings as Record<string, unknown>) !==
      secretTarget(existing.kind, valid.settings)
  )
    throw new ValidationError(
      "The issuer, client, address or bind user changed: give the secret again.",
      "secret",
    );
  const sealed = secret ? secrets.seal(secret, providerSecretContext(existing.id)) : undefined;
  const row = await prisma.$transaction(async (tx) => {
    const row = await tx.identityProvider.update({
      where: { id: existing.id },
      data: {
        displayName: valid.displayName,
        isEnabled: input.isEnabled,
        createJustInTime: input.createJustInTime,
        settings: valid.settings as Prisma.InputJsonValue,
        groupMappings: valid.groupMappings as unknown as Prisma.InputJsonValue,
        ...(sealed ? { secretCiphertext: sealed.ciphertext, secretKeyId: sealed.keyId } : {}),
        ...(input.clearSecret && !sealed ? { secretCiphertext: null, secretKeyId: null } : {}),
      },
    });
    await recordAudit(tx, actor, {
      action: "identity_provider.update",
      targetType: "identity_provider",
      targetId: row.id,
      details: {
        slug: row.slug,
        isEnabled: row.isEnabled,
        secretChanged: !isSecretKept,
      },
    });
    return row;
  });
  return fromRow(row, secrets);
}

/**
 * Deletes a stored provider. Accounts it created stay (an administrator disables or deletes them);
 * their identities stay too, so the same people are recognised if the provider comes back.
 */
export async function deleteIdentityProvider(
  sources: ProviderSources,
  slug: string,
  actor: Viewer | null,
): Promise<void> {
  refuseEnvironmentSlug(sources, slug);
  const { prisma } = sources;
  const existing = await prisma.identityProvider.findUnique({ where: { slug } });
  if (!existing) throw new NotFoundError(`No provider has the slug ${slug}.`);
  await prisma.$transaction(async (tx) => {
    await tx.identityProvider.delete({ where: { id: existing.id } });
    await recordAudit(tx, actor, {
      action: "identity_provider.delete",
      targetType: "identity_provider",
      targetId: existing.id,
      details: { slug },
    });
  });
}
