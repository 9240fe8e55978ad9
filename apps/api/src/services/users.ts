// User accounts: the one place their rules live, used by GraphQL, the CLI and the tests.
import { type Capability, Prisma, type PrismaClient } from "@hyperlens/db";
import { DEFAULT_CAPABILITIES } from "@hyperlens/shared";
import { hashPassword, passwordProblem } from "../auth/passwords.ts";
import type { Viewer } from "../auth/viewer.ts";
import { ValidationError } from "../errors.ts";
import { recordAudit } from "./audit.ts";

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** A user to create; without `capabilities`, the defaults (view, and starting syncs). */
export interface NewUser {
  username: string;
  password: string;
  capabilities?: readonly Capability[];
  isAdmin?: boolean;
}

/** Creates a user after checking the name and password; names are unique, case-insensitively. */
export async function createUser(prisma: PrismaClient, input: NewUser, actor: Viewer | null) {
  const username = input.username.trim();
  if (!USERNAME.test(username)) {
    throw new ValidationError(
      "Use 1–64 letters, digits, dots, dashes, underscores or @, starting with a letter or digit.",
      "username",
    );
  }
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
