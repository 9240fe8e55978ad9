// Signing in: the same answer for an unknown user and a wrong password, in the same time, and a
// limit on attempts per user name and per client address that is charged before the password is
// checked (so a refused attempt tells nothing about the password).
import type { PrismaClient, SecretBox } from "@hyperlens/db";
import { verifyAgainstDummy, verifyPassword } from "../auth/passwords.ts";
import { createSession, type SessionPolicy } from "../auth/sessions.ts";
import {
  reserveSignInAttempt,
  settleSuccessfulSignIn,
  signInKeys,
  type ThrottlePolicy,
} from "../auth/throttle.ts";
import { hashSecret, newSecret } from "../auth/tokens.ts";
import { mayUsePassword } from "../identity/local-sign-in.ts";
import {
  acceptSecondFactor,
  reserveCodeAttempt,
  type SecondFactor,
  settleCodeAttempt,
} from "./two-factor.ts";
import { findUserByName } from "./users.ts";

/** How long a sign-in waits for its second factor. */
export const SIGN_IN_CHALLENGE_MS = 5 * 60_000;

export type SignInResult =
  | { ok: true; secret: string; userId: string }
  | { ok: false; reason: "INVALID_CREDENTIALS" }
  | { ok: false; reason: "PASSWORD_SIGN_IN_OFF" }
  | { ok: false; reason: "RATE_LIMITED"; retryAt: Date }
  | { ok: false; reason: "TWO_FACTOR_REQUIRED"; challenge: string; expiresAt: Date };

/** Checks credentials and, when they hold, creates a fresh session (a new id every sign-in). */
export async function signIn(
  prisma: PrismaClient,
  input: {
    username: string;
    password: string;
    address?: string | undefined;
    userAgent?: string | undefined;
  },
  policy: SessionPolicy,
  throttle?: ThrottlePolicy,
): Promise<SignInResult> {
  const username = input.username.trim();
  const account = await findUserByName(prisma, username);
  const keys = signInKeys(account, username, input.address);
  const retryAt = await reserveSignInAttempt(prisma, keys, throttle);
  if (retryAt) return { ok: false, reason: "RATE_LIMITED", retryAt };
  // An account without a password (single sign-on only) never signs in with one.
  const user = account && !account.isDisabled && account.passwordHash ? account : null;
  const isValid = user?.passwordHash
    ? await verifyPassword(input.password, user.passwordHash)
    : await verifyAgainstDummy(input.password);
  // A failure was counted when the attempt was reserved.
  if (!user || !isValid) return { ok: false, reason: "INVALID_CREDENTIALS" };
  await settleSuccessfulSignIn(prisma, keys, throttle);
  if (!(await mayUsePassword(prisma, user.id)))
    return { ok: false, reason: "PASSWORD_SIGN_IN_OFF" };
  // TRAP: docs/behaviour.md §12.32 — with two-factor on, a right password alone opens no session.
  if (account?.hasTwoFactor) return openChallenge(prisma, user.id, input);
  const { secret } = await createSession(prisma, user.id, policy, {
    address: input.address,
    userAgent: input.userAgent,
  });
  return { ok: true, secret, userId: user.id };
}

/** A sign-in waiting for its second factor: a random challenge, stored as a hash, used once. */
async function openChallenge(
  prisma: PrismaClient,
  userId: string,
  origin: { address?: string | undefined; userAgent?: string | undefined },
): Promise<SignInResult> {
  const now = new Date();
  const challenge = newSecret();
  const expiresAt = new Date(now.getTime() + SIGN_IN_CHALLENGE_MS);
  // Old challenges of this user go: each right password would otherwise leave one behind.
  await prisma.signInChallenge.deleteMany({ where: { userId, expiresAt: { lte: now } } });
  await prisma.signInChallenge.create({
    data: {
      userId,
      tokenHash: hashSecret(challenge),
      expiresAt,
      address: origin.address ?? null,
      userAgent: origin.userAgent?.slice(0, 512) ?? null,
    },
  });
  return { ok: false, reason: "TWO_FACTOR_REQUIRED", challenge, expiresAt };
}

export type CompleteSignInResult =
  | { ok: true; secret: string; userId: string }
  | { ok: false; reason: "CHALLENGE_EXPIRED" }
  | { ok: false; reason: "INVALID_CODE" }
  | { ok: false; reason: "RATE_LIMITED"; retryAt: Date };

class CodeRefused extends Error {}

/**
 * Finishes a sign-in with the challenge `signIn` handed out and a code (or a recovery code). The
 * challenge is spent in the same transaction that accepts the code, so it works once, and a
 * wrong code leaves it for another try (within its few minutes and the code rate limit).
 */
export async function completeSignIn(
  prisma: PrismaClient,
  secrets: SecretBox,
  input: {
    challenge: string;
    address?: string | undefined;
    userAgent?: string | undefined;
  } & SecondFactor,
  policy: SessionPolicy,
  throttle?: ThrottlePolicy,
  now = new Date(),
): Promise<CompleteSignInResult> {
  const tokenHash = hashSecret(input.challenge);
  const found = await prisma.signInChallenge.findUnique({
    where: { tokenHash },
    include: { user: true },
  });
  if (!found || found.expiresAt <= now || found.user.disabledAt || !found.user.totpEnabledAt) {
    return { ok: false, reason: "CHALLENGE_EXPIRED" };
  }
  // Password sign-in may have been turned off since the challenge was handed out.
  if (!(await mayUsePassword(prisma, found.userId)))
    return { ok: false, reason: "CHALLENGE_EXPIRED" };
  const origin = { address: input.address, throttle };
  const retryAt = await reserveCodeAttempt(prisma, found.userId, { ...origin, now });
  if (retryAt) return { ok: false, reason: "RATE_LIMITED", retryAt };
  let refused: CompleteSignInResult | undefined;
  try {
    await prisma.$transaction(async (tx) => {
      // TRAP: docs/behaviour.md §12.32 — spent before the session exists: a challenge works once.
      const spent = await tx.signInChallenge.deleteMany({
        where: { id: found.id, expiresAt: { gt: now } },
      });
      if (spent.count !== 1) {
        refused = { ok: false, reason: "CHALLENGE_EXPIRED" };
        throw new CodeRefused();
      }
      // A wrong code rolls the transaction back: the challenge stays for another try.
      if (
        !(await acceptSecondFactor(tx, secrets, found.user, input, {
          allowRecoveryCode: true,
          now,
        }))
      ) {
        refused = { ok: false, reason: "INVALID_CODE" };
        throw new CodeRefused();
      }
    });
  } catch (error) {
    if (error instanceof CodeRefused && refused) return refused;
    throw error;
  }
  await settleCodeAttempt(prisma, found.userId, origin);
  const { secret } = await createSession(prisma, found.userId, policy, {
    address: input.address,
    userAgent: input.userAgent,
  });
  return { ok: true, secret, userId: found.userId };
}
