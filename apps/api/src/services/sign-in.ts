// Signing in: the same answer for an unknown user and a wrong password, in the same time, and a
// limit on attempts per user name and per client address that is charged before the password is
// checked (so a refused attempt tells nothing about the password).
import type { PrismaClient } from "@hyperlens/db";
import { verifyAgainstDummy, verifyPassword } from "../auth/passwords.ts";
import { createSession, type SessionPolicy } from "../auth/sessions.ts";
import {
  reserveSignInAttempt,
  settleSuccessfulSignIn,
  signInKeys,
  type ThrottlePolicy,
} from "../auth/throttle.ts";
import { mayUsePassword } from "../identity/local-sign-in.ts";
import { findUserByName } from "./users.ts";

export type SignInResult =
  | { ok: true; secret: string; userId: string }
  | { ok: false; reason: "INVALID_CREDENTIALS" }
  | { ok: false; reason: "PASSWORD_SIGN_IN_OFF" }
  | { ok: false; reason: "RATE_LIMITED"; retryAt: Date };

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
  const { secret } = await createSession(prisma, user.id, policy, {
    address: input.address,
    userAgent: input.userAgent,
  });
  return { ok: true, secret, userId: user.id };
}
