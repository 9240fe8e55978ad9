// Signing in with an identity a provider vouched for (an OpenID Connect ID token, an LDAP bind):
// the account is found by the provider's subject — never by e-mail or name — created just in time
// when the provider allows it, and its access re-derived from the provider's groups every time.
import { type Capability, Prisma, type PrismaClient } from "@hyperlens/db";
import { createSession, type SessionOrigin, type SessionPolicy } from "../auth/sessions.ts";
import type { Viewer } from "../auth/viewer.ts";
import { recordAudit } from "../services/audit.ts";
import { findUserByName } from "../services/users.ts";
import { type IdentityProviderConfig, mapGroups } from "./provider-config.ts";

/** Who the provider says signed in. */
export interface ExternalIdentity {
  /** The provider's stable id for the person (OIDC `sub`, an LDAP entry's DN or GUID). */
  subject: string;
  /** The name the provider suggests; the account's name is derived from it at creation only. */
  preferredUsername: string | undefined;
  email?: string | undefined;
  groups: readonly string[];
}

/** Why a vouched-for identity may not sign in; codes the sign-in page explains. */
export type ExternalSignInRefusal =
  | "PROVIDER_DISABLED"
  | "NO_ACCOUNT"
  | "ACCOUNT_DISABLED"
  | "INVALID_IDENTITY";

export type ExternalSignInResult =
  | { ok: true; secret: string; userId: string; username: string; isNewUser: boolean }
  | { ok: false; reason: ExternalSignInRefusal; message: string };

const MESSAGES: Record<ExternalSignInRefusal, string> = {
  PROVIDER_DISABLED: "This sign-in provider is turned off.",
  NO_ACCOUNT:
    "No Hyperlens account is linked to this identity, and this provider does not create accounts. Ask an administrator.",
  ACCOUNT_DISABLED: "This account is disabled.",
  INVALID_IDENTITY: "The provider did not say who signed in.",
};

const MAX_SUBJECT_LENGTH = 512;
const MAX_GROUPS = 1000;
const MAX_GROUP_LENGTH = 512;

function refused(reason: ExternalSignInRefusal): ExternalSignInResult {
  return { ok: false, reason, message: MESSAGES[reason] };
}

/**
 * A user name for a new account from the provider's suggestion: the characters user names allow
 * (docs/behaviour.md §12), at most 60 so a counter fits.
 */
export function usernameBase(preferred: string | undefined, email: string | undefined): string {
  const source = preferred?.trim() || email?.split("@")[0] || "";
  const cleaned = source
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._@-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 60)
    .replace(/[-.@_]+$/, "");
  return cleaned || "user";
}

async function freeUsername(prisma: PrismaClient, base: string): Promise<string> {
  for (let n = 1; n < 1000; n += 1) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await findUserByName(prisma, candidate))) return candidate;
  }
  throw new Error(`No free user name starting with ${base}.`);
}

function actorOf(user: { id: string; username: string; isAdmin: boolean }): Viewer {
  return {
    kind: "USER",
    userId: user.id,
    username: user.username,
    isAdmin: user.isAdmin,
    capabilities: new Set(),
    scope: { all: false, groupIds: [], connectionIds: [] },
  };
}

/**
 * Signs in the person a provider vouched for and creates their session. The caller has already
 * proved the identity (validated the ID token, bound to the directory).
 */
export async function signInExternalIdentity(
  prisma: PrismaClient,
  provider: IdentityProviderConfig,
  identity: ExternalIdentity,
  origin: Omit<SessionOrigin, "method">,
  policy: SessionPolicy,
): Promise<ExternalSignInResult> {
  if (!provider.isEnabled) return refused("PROVIDER_DISABLED");
  const subject = identity.subject;
  if (!subject || subject.length > MAX_SUBJECT_LENGTH) return refused("INVALID_IDENTITY");
  const groups = [...new Set(identity.groups)]
    .filter((g) => g.length > 0 && g.length <= MAX_GROUP_LENGTH)
    .slice(0, MAX_GROUPS);
  const access = mapGroups(provider.groupMappings, groups);

  // TRAP: docs/behaviour.md §12 — the account is found by (provider, subject) only: matching an e-mail or
  // a name would hand an existing local account to whoever the provider lets choose that e-mail.
  const identityRow = await prisma.userIdentity.findUnique({
    where: { provider_subject: { provider: provider.slug, subject } },
    include: { user: true },
  });
  if (identityRow?.user.disabledAt) {
    await recordAudit(prisma, actorOf(identityRow.user), {
      action: "auth.external.refused",
      targetType: "user",
      targetId: identityRow.user.id,
      details: { provider: provider.slug, reason: "ACCOUNT_DISABLED" },
    });
    return refused("ACCOUNT_DISABLED");
  }
  if (!identityRow && !provider.createJustInTime) {
    await recordAudit(prisma, null, {
      action: "auth.external.refused",
      targetType: "user_identity",
      details: { provider: provider.slug, subject, reason: "NO_ACCOUNT" },
    });
    return refused("NO_ACCOUNT");
  }

  const applied = await applyAccess(
    prisma,
    provider,
    identity,
    subject,
    groups,
    access,
    identityRow,
  );
  const { secret } = await createSession(prisma, applied.user.id, policy, {
    ...origin,
    method: provider.slug,
  });
  return {
    ok: true,
    secret,
    userId: applied.user.id,
    username: applied.user.username,
    isNewUser: applied.isNewUser,
  };
}

type IdentityWithUser = Prisma.UserIdentityGetPayload<{ include: { user: true } }>;

async function applyAccess(
  prisma: PrismaClient,
  provider: IdentityProviderConfig,
  identity: ExternalIdentity,
  subject: string,
  groups: string[],
  access: ReturnType<typeof mapGroups>,
  existing: IdentityWithUser | null,
) {
  for (let attempt = 0; ; attempt += 1) {
    const username = existing
      ? existing.user.username
      : await freeUsername(prisma, usernameBase(identity.preferredUsername, identity.email));
    try {
      return await prisma.$transaction(async (tx) => {
        const data = {
          capabilities: access.isAdmin ? [] : (access.capabilities as Capability[]),
          isAdmin: access.isAdmin,
          allConnections: access.allConnections,
        };
        let isNewUser = false;
        let user = existing?.user;
        if (user) {
          user = await tx.user.update({ where: { id: user.id }, data });
          await tx.userIdentity.update({
            where: { id: existing?.id ?? "" },
            data: { externalGroups: groups, lastSignInAt: new Date() },
          });
        } else {
          isNewUser = true;
          user = await tx.user.create({ data: { username, passwordHash: null, ...data } });
          await tx.userIdentity.create({
            data: { userId: user.id, provider: provider.slug, subject, externalGroups: groups },
          });
          await recordAudit(tx, actorOf(user), {
            action: "user.create",
            targetType: "user",
            targetId: user.id,
            details: { username, provider: provider.slug, justInTime: true },
          });
        }
        // The provider's grants are replaced; grants made by hand (source null) are not its to touch.
        const found = await tx.connectionGroup.findMany({
          where: { name: { in: access.connectionGroups } },
          select: { id: true, name: true },
        });
        await tx.userGroupGrant.deleteMany({ where: { userId: user.id, source: provider.slug } });
        const handGranted = new Set(
          (
            await tx.userGroupGrant.findMany({
              where: { userId: user.id },
              select: { groupId: true },
            })
          ).map((g) => g.groupId),
        );
        const toGrant = found.filter((g) => !handGranted.has(g.id));
        if (toGrant.length)
          await tx.userGroupGrant.createMany({
            data: toGrant.map((g) => ({ userId: user.id, groupId: g.id, source: provider.slug })),
          });
        const foundNames = new Set(found.map((g) => g.name));
        await recordAudit(tx, actorOf(user), {
          action: "auth.external.sign_in",
          targetType: "user",
          targetId: user.id,
          details: {
            provider: provider.slug,
            groups,
            matchedGroups: access.matchedGroups,
            capabilities: user.capabilities,
            isAdmin: user.isAdmin,
            allConnections: user.allConnections,
            connectionGroups: found.map((g) => g.name).sort(),
            missingConnectionGroups: access.connectionGroups.filter((n) => !foundNames.has(n)),
          },
        });
        return { user, isNewUser };
      });
    } catch (error) {
      // Two first sign-ins at once (same subject, or two people wanting one name): try again.
      const isConflict =
        error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
      if (!isConflict || attempt >= 3) throw error;
      existing = await prisma.userIdentity.findUnique({
        where: { provider_subject: { provider: provider.slug, subject } },
        include: { user: true },
      });
      if (existing?.user.disabledAt) throw error;
    }
  }
}
