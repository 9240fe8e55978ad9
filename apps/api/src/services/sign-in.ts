// Signing in: the same answer for an unknown user and a wrong password, in the same time, and
// a lock after repeated failures (which also hides whether the password was right).
import type { PrismaClient } from "@hyperlens/db";
import { verifyAgainstDummy, verifyPassword } from "../auth/passwords.ts";
import { createSession, type SessionPolicy } from "../auth/sessions.ts";
import {
  clearFailures,
  lockedUntil,
  recordFailure,
  type ThrottlePolicy,
} from "../auth/throttle.ts";

export type SignInResult =
  | { ok: true; secret: string; userId: string }
  | { ok: false; reason: "INVALID_CREDENTIALS" }
  | { ok: false; reason: "RATE_LIMITED"; retryAt: Date };

/** Checks credentials and, when they hold, creates a fresh session (a new id every sign-in). */
export async function signIn(
  prisma: PrismaClient,
  input: { username: string; password: string; address?: string },
  policy: SessionPolicy,
  throttle?: ThrottlePolicy,
): Promise<SignInResult> {
  const username = input.username.trim();
  const retryAt = await lockedUntil(prisma, username, input.address);
  if (retryAt) return { ok: false, reason: "RATE_LIMITED", retryAt };
  const user = await prisma.user.findFirst({
    where: { username: { equals: username, mode: "insensitive" }, disabledAt: null },
  });
  const isValid = user
    ? await verifyPassword(input.password, user.passwordHash)
    : await verifyAgainstDummy(input.password);
  if (!user || !isValid) {
    await recordFailure(prisma, username, input.address, throttle);
    return { ok: false, reason: "INVALID_CREDENTIALS" };
  }
  await clearFailures(prisma, username);
  const { secret } = await createSession(prisma, user.id, policy);
  return { ok: true, secret, userId: user.id };
}
