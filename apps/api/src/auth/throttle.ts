// Sign-in rate limiting shared by every replica (the counters live in the database): a user name
// is locked after repeated failures, and so is a client address that tries many names.
import type { PrismaClient } from "@hyperlens/db";

export interface ThrottlePolicy {
  windowMs: number;
  lockMs: number;
  maxFailuresPerUser: number;
  maxFailuresPerAddress: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  maxFailuresPerUser: 5,
  maxFailuresPerAddress: 20,
};

function keysFor(username: string, address: string | undefined) {
  const keys = [{ key: `user:${username.toLowerCase()}`, isUser: true }];
  if (address) keys.push({ key: `addr:${address}`, isUser: false });
  return keys;
}

/** When sign-in is locked for this user or address, the time it unlocks; else null. */
export async function lockedUntil(
  prisma: PrismaClient,
  username: string,
  address: string | undefined,
  now = new Date(),
): Promise<Date | null> {
  const rows = await prisma.loginThrottle.findMany({
    where: { key: { in: keysFor(username, address).map((k) => k.key) }, lockedUntil: { gt: now } },
  });
  const times = rows.flatMap((row) => (row.lockedUntil ? [row.lockedUntil.getTime()] : []));
  return times.length ? new Date(Math.max(...times)) : null;
}

/** Counts a failed attempt, locking the key when it reaches its limit within the window. */
export async function recordFailure(
  prisma: PrismaClient,
  username: string,
  address: string | undefined,
  policy = DEFAULT_THROTTLE,
  now = new Date(),
) {
  for (const { key, isUser } of keysFor(username, address)) {
    const limit = isUser ? policy.maxFailuresPerUser : policy.maxFailuresPerAddress;
    const row = await prisma.loginThrottle.findUnique({ where: { key } });
    const isFreshWindow = !row || now.getTime() - row.windowStart.getTime() > policy.windowMs;
    const failures = isFreshWindow ? 1 : (row?.failures ?? 0) + 1;
    const data = {
      failures,
      windowStart: isFreshWindow ? now : (row?.windowStart ?? now),
      lockedUntil:
        failures >= limit ? new Date(now.getTime() + policy.lockMs) : (row?.lockedUntil ?? null),
    };
    await prisma.loginThrottle.upsert({ where: { key }, create: { key, ...data }, update: data });
  }
}

/** Forgets a user's failures after a successful sign-in. */
export async function clearFailures(prisma: PrismaClient, username: string) {
  await prisma.loginThrottle.deleteMany({ where: { key: `user:${username.toLowerCase()}` } });
}
