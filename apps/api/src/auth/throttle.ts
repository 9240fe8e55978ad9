// Sign-in rate limiting shared by every replica (the counters live in the database). Each attempt
// is counted BEFORE its password is checked, in one statement that also refuses it when the key
// must still wait, so attempts sent at once cannot all slip past the limit. A user name waits a
// delay that doubles with each failure past a few free ones (never a long lock: anyone can fail
// on someone else's name); a client address that fails many times is held back longer.
import { Prisma, type PrismaClient } from "@hyperlens/db";

/** How the failures of one key (a user, or a client address) hold its next attempt back. */
export interface DelayRule {
  /** Failures are forgotten this long after the first failure of a run. */
  windowMs: number;
  /** Failures in a window that cost no wait. */
  freeFailures: number;
  /** The wait after the first failure past the free ones; each further failure doubles it. */
  firstDelayMs: number;
  /** The longest wait. */
  maxDelayMs: number;
}

/** The delay rules of a sign-in: per user (account or unknown name) and per client address. */
export interface ThrottlePolicy {
  user: DelayRule;
  address: DelayRule;
}

/**
 * Five free failures per user name, then 1 s, 2 s, 4 s … up to 5 minutes between attempts: a
 * guesser gets about 25 tries an hour, while the real user waits minutes at worst, not a lock.
 * An address gets 20 failures in 15 minutes, then waits 15 minutes (it only hurts itself).
 */
export const DEFAULT_THROTTLE: ThrottlePolicy = {
  user: { windowMs: 60 * 60_000, freeFailures: 5, firstDelayMs: 1000, maxDelayMs: 5 * 60_000 },
  address: {
    windowMs: 15 * 60_000,
    freeFailures: 20,
    firstDelayMs: 15 * 60_000,
    maxDelayMs: 15 * 60_000,
  },
};

/** The counters one sign-in attempt is charged to. */
export interface SignInKeys {
  user: string;
  address: string | undefined;
}

/**
 * The keys of an attempt: the account's id when the name names one (every spelling of the name
 * shares it), else the lower-cased name; and the client address when known.
 */
export function signInKeys(
  account: { id: string } | null,
  username: string,
  address: string | undefined,
): SignInKeys {
  return {
    // TRAP: docs/api.md sign-in — a key per spelling would give each spelling its own limit.
    user: account ? `user:id:${account.id}` : `user:name:${username.toLowerCase()}`,
    address: address ? `addr:${address}` : undefined,
  };
}

/** The wait after `failures` (an SQL expression) counted failures, as a timestamptz or NULL. */
function waitUntil(failures: Prisma.Sql, rule: DelayRule, now: Date): Prisma.Sql {
  // The exponent is capped so power() cannot overflow before LEAST caps the delay.
  return Prisma.sql`CASE WHEN ${failures} < ${rule.freeFailures}::int THEN NULL ELSE
    ${now}::timestamptz + LEAST(
      ${rule.firstDelayMs}::float8 * power(2, LEAST(${failures} - ${rule.freeFailures}::int, 40)),
      ${rule.maxDelayMs}::float8
    ) * interval '1 millisecond' END`;
}

/**
 * Counts an attempt against a key, unless the key must still wait: then nothing is counted and
 * the time it may try again is returned. One statement, so concurrent attempts queue on the row.
 */
export async function takeAttempt(
  prisma: PrismaClient,
  key: string,
  rule: DelayRule,
  now = new Date(),
): Promise<Date | null> {
  const windowFloor = new Date(now.getTime() - rule.windowMs);
  const isNewWindow = Prisma.sql`t."windowStart" <= ${windowFloor}::timestamptz`;
  const failures = Prisma.sql`(CASE WHEN ${isNewWindow} THEN 1 ELSE t."failures" + 1 END)`;
  // TRAP: docs/api.md sign-in — checking the limit and counting in two statements let 24
  // guesses sent at once all be tried; the WHERE refuses inside the same row-locked upsert.
  const taken = await prisma.$queryRaw<{ failures: number }[]>`
    INSERT INTO "login_throttles" AS t ("key", "failures", "windowStart", "lockedUntil")
    VALUES (${key}, 1, ${now}::timestamptz, ${waitUntil(Prisma.sql`1`, rule, now)})
    ON CONFLICT ("key") DO UPDATE SET
      "failures" = ${failures},
      "windowStart" = CASE WHEN ${isNewWindow} THEN ${now}::timestamptz ELSE t."windowStart" END,
      "lockedUntil" = ${waitUntil(failures, rule, now)}
    WHERE t."lockedUntil" IS NULL OR t."lockedUntil" <= ${now}::timestamptz
    RETURNING t."failures"`;
  if (taken.length > 0) return null;
  const row = await prisma.loginThrottle.findUnique({ where: { key } });
  return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : now;
}

/** Takes back an attempt counted by {@link takeAttempt} that turned out not to be a failure. */
export async function refundAttempt(prisma: PrismaClient, key: string, rule: DelayRule) {
  await prisma.$executeRaw`
    UPDATE "login_throttles"
    SET "failures" = "failures" - 1,
        "lockedUntil" = CASE WHEN "failures" - 1 < ${rule.freeFailures}::int THEN NULL
                        ELSE "lockedUntil" END
    WHERE "key" = ${key} AND "failures" > 0`;
}

/**
 * Counts a sign-in attempt against its address and its user, before the password is checked;
 * the time to retry when either must still wait (then neither is charged), else null.
 */
export async function reserveSignInAttempt(
  prisma: PrismaClient,
  keys: SignInKeys,
  policy = DEFAULT_THROTTLE,
  now = new Date(),
): Promise<Date | null> {
  if (keys.address) {
    const addressRetryAt = await takeAttempt(prisma, keys.address, policy.address, now);
    if (addressRetryAt) return addressRetryAt;
  }
  const userRetryAt = await takeAttempt(prisma, keys.user, policy.user, now);
  // The address's count can be taken back exactly; a user's doubled delay could not be.
  if (userRetryAt && keys.address) await refundAttempt(prisma, keys.address, policy.address);
  return userRetryAt;
}

/** After a correct password: the user's failures are forgotten, the address's attempt refunded. */
export async function settleSuccessfulSignIn(
  prisma: PrismaClient,
  keys: SignInKeys,
  policy = DEFAULT_THROTTLE,
) {
  await prisma.loginThrottle.deleteMany({ where: { key: keys.user } });
  if (keys.address) await refundAttempt(prisma, keys.address, policy.address);
}
