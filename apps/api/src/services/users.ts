// User accounts: the one place their rules live, used by GraphQL, the CLI and the tests.
import { type Capability, Prisma, type PrismaClient } from "@hyperlens/db";
import { DEFAULT_CAPABILITIES } from "@hyperlens/shared";
import { hashPassword, passwordProblem, verifyPassword } from "../auth/passwords.ts";
import {
  DEFAULT_THROTTLE,
  reserveSignInAttempt,
  settleSuccessfulSignIn,
  signInKeys,
} from "../auth/throttle.ts";
import type { Viewer } from "../auth/viewer.ts";
import { ForbiddenError, NotFoundError, RateLimitedError, ValidationError } from "../errors.ts";
import { type AuditActor, recordAudit } from "./audit.ts";

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** A user to create; without `capabilities`, the defaults (view, and starting syncs). */
export interface NewUser {
  username: string;
  password: string;
  capabilities?: readonly Capability[];
  isAdmin?: boolean;
}

/** Creates a user after checking the name and password; names are unique, case-insensitively. */
export async function createUser(prisma: PrismaClient, input: NewUser, actor: AuditActor | null) {
  const username = input.username.trim();
  if (!USERNAME.test(username)) {
    throw new ValidationError(
      "Use 1–64 letters, digits, dots, dashes, underscores or @, starting with a letter or digit.",
      "username",
    );
  }
  checkAuthorityOver(actor, null, {
    isAdmin: input.isAdmin,
    capabilities: input.capabilities ?? DEFAULT_CAPABILITIES,
  });
  const problem = passwordProblem(input.password);
  if (problem) throw new ValidationError(problem, "password");
  const existing = await findUserByName(prisma, username);
  if (existing) throw nameTaken(existing.username);
  const passwordHash = await hashPassword(input.password);
  const user = await prisma.user
    .create({
      data: {
        username,
        passwordHash,
        capabilities: input.isAdmin
          ? []
          : [...new Set<Capability>(input.capabilities ?? DEFAULT_CAPABILITIES)],
        isAdmin: input.isAdmin ?? false,
      },
    })
    .catch((error: unknown) => {
      // Two creations of one name at once: the unique index on lower(username) refuses the second.
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
        throw nameTaken(username);
      throw error;
    });
  await recordAudit(prisma, actor, {
    action: "user.create",
    targetType: "user",
    targetId: user.id,
    details: { username, isAdmin: user.isAdmin, capabilities: user.capabilities },
  });
  return user;
}

function nameTaken(username: string) {
  return new ValidationError(`A user named ${username} already exists.`, "username");
}

/** What sign-in and the name check need of an account. */
export interface UserByName {
  id: string;
  username: string;
  passwordHash: string | null;
  isDisabled: boolean;
  /** Two-factor is on: a right password only opens a sign-in challenge. */
  hasTwoFactor: boolean;
}

/**
 * The account with this name, compared case-insensitively and otherwise exactly (disabled ones
 * too); null when there is none. One statement whether or not it exists, so sign-in takes the
 * same time for an unknown name.
 */
export async function findUserByName(
  prisma: PrismaClient,
  username: string,
): Promise<UserByName | null> {
  // TRAP: docs/api.md sign-in — Prisma's `equals` with `mode: "insensitive"` is ILIKE, where "_"
  // and "%" are wildcards: "vict_m" signed in as victim. lower() = lower() compares characters.
  const rows = await prisma.$queryRaw<UserByName[]>`
    SELECT "id", "username", "passwordHash", "disabledAt" IS NOT NULL AS "isDisabled",
      "totpEnabledAt" IS NOT NULL AS "hasTwoFactor"
    FROM "users" WHERE lower("username") = lower(${username})`;
  return rows[0] ?? null;
}

/** True once any user exists (first-run setup is over). */
export async function hasAnyUser(prisma: PrismaClient): Promise<boolean> {
  return (await prisma.user.count()) > 0;
}

/**
 * What the lifecycle rules need besides the database: a way to tell every replica that a user's
 * credentials changed, so their open subscriptions are checked again at once
 * (auth/credential-changes.ts). Called after the change is committed.
 */
export interface UserLifecycle {
  prisma: PrismaClient;
  announce(userId: string): void | Promise<void>;
}

/** An account to act on, by id; NOT_FOUND when there is none. */
async function userById(prisma: PrismaClient | Prisma.TransactionClient, userId: string) {
  const user = await prisma.user.findUnique({ where: { id: userId } });
  if (!user) throw new NotFoundError("No such user.");
  return user;
}

function checkNewPassword(password: string, field: string) {
  const problem = passwordProblem(password);
  if (problem) throw new ValidationError(problem, field);
}

/**
 * Refuses a change that would leave no enabled administrator: `remaining` is how many other
 * enabled administrators there are, read under a lock so two administrators demoting each other
 * at once cannot both succeed.
 */
async function otherEnabledAdmins(tx: Prisma.TransactionClient, userId: string): Promise<number> {
  // TRAP: docs/behaviour.md §7.8 — without FOR UPDATE two admins removing each other both pass.
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "users" WHERE "isAdmin" AND "disabledAt" IS NULL ORDER BY "id" FOR UPDATE`;
  return rows.filter((row) => row.id !== userId).length;
}

function lastAdminError(what: string) {
  return new ValidationError(
    `This is the last enabled administrator: ${what} would leave nobody able to manage Hyperlens. Make another user an administrator first.`,
    "userId",
  );
}

/**
 * A user manager who is not an administrator manages the accounts below them only: they may not
 * act on an administrator, make one, or hand out a capability they do not hold — otherwise
 * MANAGE_USERS would be administrator under another name. The command line (the machine's
 * operator, no viewer) may.
 */
export function checkAuthorityOver(
  actor: AuditActor | null,
  target: { isAdmin: boolean } | null,
  change: { isAdmin?: boolean | undefined; capabilities?: readonly Capability[] | undefined } = {},
) {
  if (!actor || !isViewer(actor) || actor.isAdmin) return;
  // TRAP: docs/behaviour.md §7.16 — a user manager resetting an administrator's password becomes one.
  if (target?.isAdmin)
    throw new ForbiddenError("Only an administrator may change an administrator's account.");
  if (change.isAdmin)
    throw new ForbiddenError("Only an administrator may make someone an administrator.");
  const missing = (change.capabilities ?? []).filter((c) => !actor.capabilities.has(c));
  if (missing.length) {
    throw new ValidationError(
      `You cannot grant capabilities you do not hold: ${missing.join(", ")}.`,
      "capabilities",
    );
  }
}

function isViewer(actor: AuditActor): actor is Viewer {
  return "capabilities" in actor;
}

/**
 * Changes the viewer's own password: the current one must be given (a wrong one is charged to
 * the sign-in limit like a guessed password), the viewer's other sessions end, this one stays,
 * and a reset's "must change" is cleared.
 */
export async function changeOwnPassword(
  life: UserLifecycle,
  viewer: Viewer,
  input: { currentPassword: string; newPassword: string; address?: string | undefined },
) {
  const { prisma } = life;
  checkNewPassword(input.newPassword, "newPassword");
  const user = await userById(prisma, viewer.userId);
  if (!user.passwordHash) {
    throw new ValidationError(
      "This account signs in through single sign-on and has no password to change.",
      "currentPassword",
    );
  }
  // TRAP: docs/behaviour.md §12.7 — an uncounted check here is a free password oracle for
  // whoever holds a stolen session.
  const keys = signInKeys(user, user.username, input.address);
  const retryAt = await reserveSignInAttempt(prisma, keys, DEFAULT_THROTTLE);
  if (retryAt) throw new RateLimitedError(retryAt);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash)))
    throw new ValidationError("The current password is not correct.", "currentPassword");
  await settleSuccessfulSignIn(prisma, keys, DEFAULT_THROTTLE);
  if (input.newPassword === input.currentPassword) {
    throw new ValidationError("Choose a password different from the current one.", "newPassword");
  }
  const passwordHash = await hashPassword(input.newPassword);
  const ended = await prisma.$transaction(async (tx) => {
    await tx.user.update({
      where: { id: user.id },
      data: { passwordHash, mustChangePassword: false },
    });
    const { count } = await tx.session.deleteMany({
      where: {
        userId: user.id,
        ...(viewer.sessionId ? { id: { not: viewer.sessionId } } : {}),
      },
    });
    await recordAudit(tx, viewer, {
      action: "user.password.change",
      targetType: "user",
      targetId: user.id,
      details: { endedSessions: count },
    });
    return count;
  });
  await life.announce(user.id);
  return { endedSessions: ended };
}

/**
 * An administrator sets a user's password: the user must choose a new one at their next sign-in
 * (unless `mustChange` is false: the command line's `--no-must-change`), and every session of
 * theirs ends. API tokens stay.
 */
export async function resetUserPassword(
  life: UserLifecycle,
  actor: AuditActor,
  input: { userId: string; newPassword: string; mustChange?: boolean },
) {
  const { prisma } = life;
  checkNewPassword(input.newPassword, "newPassword");
  if (actor.userId === input.userId) {
    throw new ValidationError(
      "Change your own password with your current one (Change password), not by a reset.",
      "userId",
    );
  }
  const target = await userById(prisma, input.userId);
  checkAuthorityOver(actor, target);
  const passwordHash = await hashPassword(input.newPassword);
  const mustChangePassword = input.mustChange ?? true;
  const user = await prisma.$transaction(async (tx) => {
    const updated = await tx.user.update({
      where: { id: target.id },
      data: { passwordHash, mustChangePassword },
    });
    await tx.session.deleteMany({ where: { userId: target.id } });
    await recordAudit(tx, actor, {
      action: "user.password.reset",
      targetType: "user",
      targetId: target.id,
      details: { username: target.username, mustChangePassword },
    });
    return updated;
  });
  await life.announce(target.id);
  return user;
}

/**
 * Sets what a user may do. Their open sessions see it at their next request (capabilities are
 * read per request); their open subscriptions are checked again at once.
 */
export async function updateUserCapabilities(
  life: UserLifecycle,
  actor: AuditActor,
  input: { userId: string; capabilities: readonly Capability[]; isAdmin: boolean },
) {
  const { prisma } = life;
  const capabilities = input.isAdmin ? [] : [...new Set<Capability>(input.capabilities)];
  const user = await prisma.$transaction(async (tx) => {
    const target = await userById(tx, input.userId);
    checkAuthorityOver(actor, target, input);
    if (target.isAdmin && !input.isAdmin && !target.disabledAt) {
      if ((await otherEnabledAdmins(tx, target.id)) === 0)
        throw lastAdminError("taking away administrator");
    }
    const updated = await tx.user.update({
      where: { id: target.id },
      data: { capabilities, isAdmin: input.isAdmin },
    });
    await recordAudit(tx, actor, {
      action: "user.update",
      targetType: "user",
      targetId: target.id,
      details: {
        username: target.username,
        before: { isAdmin: target.isAdmin, capabilities: target.capabilities },
        after: { isAdmin: updated.isAdmin, capabilities: updated.capabilities },
      },
    });
    return updated;
  });
  await life.announce(user.id);
  return user;
}

/**
 * Disables a user: their sessions end and their API tokens are revoked at once (enabling them
 * again does not bring the tokens back), and their open subscriptions end on every replica.
 */
export async function disableUser(life: UserLifecycle, actor: AuditActor, userId: string) {
  const { prisma } = life;
  if (actor.userId === userId)
    throw new ValidationError("You cannot disable your own account.", "userId");
  const now = new Date();
  const user = await prisma.$transaction(async (tx) => {
    const target = await userById(tx, userId);
    checkAuthorityOver(actor, target);
    if (target.isAdmin && !target.disabledAt && (await otherEnabledAdmins(tx, target.id)) === 0)
      throw lastAdminError("disabling it");
    const updated = await tx.user.update({
      where: { id: target.id },
      data: { disabledAt: target.disabledAt ?? now },
    });
    const sessions = await tx.session.deleteMany({ where: { userId: target.id } });
    const tokens = await tx.apiToken.updateMany({
      where: { createdById: target.id, revokedAt: null },
      data: { revokedAt: now },
    });
    await recordAudit(tx, actor, {
      action: "user.disable",
      targetType: "user",
      targetId: target.id,
      details: {
        username: target.username,
        endedSessions: sessions.count,
        revokedTokens: tokens.count,
      },
    });
    return updated;
  });
  await life.announce(user.id);
  return user;
}

/** Lets a disabled user sign in again (with their password; their old tokens stay revoked). */
export async function enableUser(life: UserLifecycle, actor: AuditActor, userId: string) {
  const { prisma } = life;
  return prisma.$transaction(async (tx) => {
    const target = await userById(tx, userId);
    checkAuthorityOver(actor, target);
    const updated = await tx.user.update({ where: { id: target.id }, data: { disabledAt: null } });
    await recordAudit(tx, actor, {
      action: "user.enable",
      targetType: "user",
      targetId: target.id,
      details: { username: target.username },
    });
    return updated;
  });
}

/**
 * Deletes a user: their sessions and tokens go with them (the database cascades); audit entries
 * stay and keep the name in `actorName`. Nobody deletes themselves.
 */
export async function deleteUser(life: UserLifecycle, actor: AuditActor, userId: string) {
  const { prisma } = life;
  if (actor.userId === userId)
    throw new ValidationError("You cannot delete your own account.", "userId");
  const deleted = await prisma.$transaction(async (tx) => {
    const target = await userById(tx, userId);
    checkAuthorityOver(actor, target);
    if (target.isAdmin && !target.disabledAt && (await otherEnabledAdmins(tx, target.id)) === 0)
      throw lastAdminError("deleting it");
    await tx.user.delete({ where: { id: target.id } });
    await recordAudit(tx, actor, {
      action: "user.delete",
      targetType: "user",
      targetId: target.id,
      details: { username: target.username },
    });
    return target;
  });
  await life.announce(deleted.id);
  return deleted;
}
