// Two-factor rules on the real database (PGlite, or PostgreSQL with DATABASE_URL): a right
// password alone opens no session, a challenge and a code work once, codes are rate-limited as
// passwords are, and nothing in the database reads as a secret (docs/behaviour.md §12.30–12.26).
import { generateSecretKeyText, loadKeyring, SecretBox } from "@hyperlens/db";
import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_THROTTLE, type ThrottlePolicy } from "../auth/throttle.ts";
import type { Viewer } from "../auth/viewer.ts";
import { completeSignIn, SIGN_IN_CHALLENGE_MS, signIn } from "./sign-in.ts";
import {
  beginTwoFactorEnrolment,
  confirmTwoFactor,
  disableTwoFactor,
  RECOVERY_CODE_COUNT,
  regenerateRecoveryCodes,
  resetTwoFactor,
} from "./two-factor.ts";
import { createUser } from "./users.ts";

const PASSWORD = "correct horse battery staple";
const SESSION = { idleMs: 60_000, maxMs: 3_600_000 };
const STEP_MS = 30_000;
// The default limits with a first wait long enough that a slow machine cannot outlast it between
// two attempts (no wall-clock assumption); the free failures are the default's.
const SLOW_THROTTLE: ThrottlePolicy = {
  ...DEFAULT_THROTTLE,
  user: { ...DEFAULT_THROTTLE.user, firstDelayMs: 10 * 60_000 },
};
const secrets = new SecretBox(
  loadKeyring({ key: generateSecretKeyText(), dataDir: "/nonexistent" }),
);

let db: TestDatabase;
let counter = 0;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.close());
beforeEach(async () => {
  await db.prisma.loginThrottle.deleteMany();
});

const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

function viewerOf(user: { id: string; username: string }): Viewer {
  return {
    kind: "USER",
    userId: user.id,
    username: user.username,
    isAdmin: false,
    capabilities: new Set(),
    scope: { all: true },
  };
}

/** Starts enrolment with the user's password; the secret (base32) it shows. */
async function begin(userId: string): Promise<{ secret: string }> {
  const begun = await beginTwoFactorEnrolment(db.prisma, secrets, userId, PASSWORD);
  if (!begun.ok) throw new Error(`enrolment was refused: ${begun.reason}`);
  return begun.value;
}

/** A user with two-factor on: its secret (base32) and recovery codes. */
async function enrolledUser() {
  counter += 1;
  const username = `user${counter}`;
  const user = await createUser(db.prisma, { username, password: PASSWORD }, null);
  const enrolment = await begin(user.id);
  // Confirmed with the previous step's code (still in the window), so this step's code is unused.
  const before = Date.now() - STEP_MS;
  const confirmed = await confirmTwoFactor(
    db.prisma,
    secrets,
    viewerOf(user),
    codeAt(enrolment.secret, before),
    { now: new Date(before) },
  );
  if (!confirmed.ok) throw new Error("the first code was refused");
  return { user, username, secret: enrolment.secret, recoveryCodes: confirmed.value };
}

async function challengeFor(username: string, address?: string) {
  const result = await signIn(db.prisma, { username, password: PASSWORD, address }, SESSION);
  if (result.ok || result.reason !== "TWO_FACTOR_REQUIRED") {
    throw new Error(`expected a challenge, got ${JSON.stringify(result)}`);
  }
  return result;
}

const finish = (
  challenge: string,
  factor: { code?: string; recoveryCode?: string },
  options: { now?: Date; address?: string; throttle?: ThrottlePolicy } = {},
) =>
  completeSignIn(
    db.prisma,
    secrets,
    { challenge, ...factor, address: options.address, userAgent: "test-agent/1" },
    SESSION,
    options.throttle,
    options.now,
  );

describe("enrolment", () => {
  it("stores the secret sealed and the recovery codes hashed: nothing in the database reads as either", async () => {
    const { user, secret, recoveryCodes } = await enrolledUser();
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.totpEnabledAt).not.toBeNull();
    expect(row.totpKeyId).toBe(secrets.currentKeyId);
    const dump = JSON.stringify([
      await db.prisma.$queryRaw`SELECT * FROM "users"`,
      await db.prisma.$queryRaw`SELECT * FROM "recovery_codes"`,
      await db.prisma.$queryRaw`SELECT * FROM "audit_logs"`,
    ]);
    // TRAP: docs/behaviour.md §12.30 — the secret is in the database only as the box's envelope.
    expect(dump).not.toContain(secret);
    for (const code of recoveryCodes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replaceAll("-", ""));
    }
  });

  it("is not in force until a first code confirms it, and a wrong first code changes nothing", async () => {
    const user = await createUser(db.prisma, { username: "pending", password: PASSWORD }, null);
    const { secret } = await begin(user.id);
    expect(
      await signIn(db.prisma, { username: "pending", password: PASSWORD }, SESSION),
    ).toMatchObject({ ok: true });
    const wrong = await confirmTwoFactor(db.prisma, secrets, viewerOf(user), "12345x");
    expect(wrong).toEqual({ ok: false, reason: "INVALID_CODE" });
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.totpEnabledAt).toBeNull();
    expect(await db.prisma.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
  });

  it("needs the current password, counted as a sign-in attempt: a stolen session alone cannot enrol", async () => {
    const user = await createUser(db.prisma, { username: "stolen", password: PASSWORD }, null);
    for (let i = 0; i < DEFAULT_THROTTLE.user.freeFailures; i += 1) {
      await expect(
        beginTwoFactorEnrolment(db.prisma, secrets, user.id, "wrong password!!", {
          throttle: SLOW_THROTTLE,
        }),
      ).rejects.toThrow(/current password/);
    }
    expect(
      await beginTwoFactorEnrolment(db.prisma, secrets, user.id, PASSWORD, {
        throttle: SLOW_THROTTLE,
      }),
    ).toMatchObject({
      ok: false,
      reason: "RATE_LIMITED",
    });
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.totpCiphertext).toBeNull();
  });

  it("is refused to an account that signs in through single sign-on only", async () => {
    const user = await db.prisma.user.create({
      data: { username: "sso-only", passwordHash: null, capabilities: [] },
    });
    await expect(begin(user.id)).rejects.toThrow(/single sign-on/);
  });

  it("cannot restart while two-factor is on (that would swap the secret without a code)", async () => {
    const { user } = await enrolledUser();
    await expect(begin(user.id)).rejects.toThrow(/already on/);
  });
});

describe("signing in with two-factor on", () => {
  it("a right password opens no session, only a hashed challenge of about five minutes", async () => {
    const { user, username } = await enrolledUser();
    const before = await db.prisma.session.count({ where: { userId: user.id } });
    const started = Date.now();
    const { challenge, expiresAt } = await challengeFor(username);
    expect(await db.prisma.session.count({ where: { userId: user.id } })).toBe(before);
    expect(expiresAt.getTime() - started).toBeGreaterThanOrEqual(SIGN_IN_CHALLENGE_MS - 1000);
    expect(expiresAt.getTime() - started).toBeLessThanOrEqual(SIGN_IN_CHALLENGE_MS + 1000);
    const stored = await db.prisma.signInChallenge.findMany({ where: { userId: user.id } });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(challenge);
  });

  it("a wrong password still answers as before, with no challenge", async () => {
    const { username } = await enrolledUser();
    expect(await signIn(db.prisma, { username, password: "wrong password!!" }, SESSION)).toEqual({
      ok: false,
      reason: "INVALID_CREDENTIALS",
    });
  });

  it("the right code creates the session, with the client's address and user agent", async () => {
    const { user, username, secret } = await enrolledUser();
    const { challenge } = await challengeFor(username, "192.0.2.7");
    const result = await finish(
      challenge,
      { code: codeAt(secret, Date.now()) },
      { address: "192.0.2.7" },
    );
    expect(result).toMatchObject({ ok: true, userId: user.id });
    const sessions = await db.prisma.session.findMany({ where: { userId: user.id } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ address: "192.0.2.7", userAgent: "test-agent/1" });
    expect(await db.prisma.signInChallenge.count({ where: { userId: user.id } })).toBe(0);
  });

  it("a wrong code opens nothing and leaves the challenge for another try", async () => {
    const { user, username, secret } = await enrolledUser();
    const { challenge } = await challengeFor(username);
    const now = Date.now();
    const wrong = String((Number(codeAt(secret, now)) + 1) % 1_000_000).padStart(6, "0");
    expect(await finish(challenge, { code: wrong })).toEqual({ ok: false, reason: "INVALID_CODE" });
    expect(await finish(challenge, { code: "not a code" })).toEqual({
      ok: false,
      reason: "INVALID_CODE",
    });
    expect(await db.prisma.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await finish(challenge, { code: codeAt(secret, now) })).toMatchObject({ ok: true });
  });

  it("a code already used in its time step is refused; the next step's code works", async () => {
    const { username, secret } = await enrolledUser();
    // The code that confirmed enrolment used this step; sign in one step later.
    const later = Date.now() + STEP_MS;
    const code = codeAt(secret, later);
    const first = await challengeFor(username);
    expect(await finish(first.challenge, { code }, { now: new Date(later) })).toMatchObject({
      ok: true,
    });
    const second = await challengeFor(username);
    // TRAP: docs/behaviour.md §12.33 — the same code, replayed within its step.
    expect(await finish(second.challenge, { code }, { now: new Date(later) })).toEqual({
      ok: false,
      reason: "INVALID_CODE",
    });
    const next = later + STEP_MS;
    expect(
      await finish(second.challenge, { code: codeAt(secret, next) }, { now: new Date(next) }),
    ).toMatchObject({ ok: true });
  });

  it("an expired challenge is refused even with the right code", async () => {
    const { username, secret } = await enrolledUser();
    const { challenge, expiresAt } = await challengeFor(username);
    const after = expiresAt.getTime() + 1;
    expect(
      await finish(challenge, { code: codeAt(secret, after) }, { now: new Date(after) }),
    ).toEqual({ ok: false, reason: "CHALLENGE_EXPIRED" });
  });

  it("a challenge works once, even with a fresh code", async () => {
    const { username, secret } = await enrolledUser();
    const { challenge } = await challengeFor(username);
    const later = Date.now() + STEP_MS;
    expect(
      await finish(challenge, { code: codeAt(secret, later) }, { now: new Date(later) }),
    ).toMatchObject({ ok: true });
    const next = later + STEP_MS;
    expect(
      await finish(challenge, { code: codeAt(secret, next) }, { now: new Date(next) }),
    ).toEqual({ ok: false, reason: "CHALLENGE_EXPIRED" });
    expect(await finish("made-up-challenge", { code: codeAt(secret, next) })).toEqual({
      ok: false,
      reason: "CHALLENGE_EXPIRED",
    });
  });

  it("two completions of one challenge sent at once open one session", async () => {
    const { user, username, recoveryCodes } = await enrolledUser();
    const { challenge } = await challengeFor(username);
    const results = await Promise.all([
      finish(challenge, { recoveryCode: recoveryCodes[0] }),
      finish(challenge, { recoveryCode: recoveryCodes[1] }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await db.prisma.session.count({ where: { userId: user.id } })).toBe(1);
  });

  it("a recovery code works once, typed in any case and without dashes", async () => {
    const { username, recoveryCodes } = await enrolledUser();
    const [code = "", other = ""] = recoveryCodes;
    const first = await challengeFor(username);
    expect(await finish(first.challenge, { recoveryCode: code })).toMatchObject({ ok: true });
    const second = await challengeFor(username);
    // TRAP: docs/behaviour.md §12.31 — a used recovery code is spent for good.
    expect(await finish(second.challenge, { recoveryCode: code })).toEqual({
      ok: false,
      reason: "INVALID_CODE",
    });
    expect(
      await finish(second.challenge, { recoveryCode: other.toUpperCase().replaceAll("-", " ") }),
    ).toMatchObject({ ok: true });
  });

  it("code guesses are limited as passwords are, and a right password does not reset the count", async () => {
    const { username, secret } = await enrolledUser();
    const free = DEFAULT_THROTTLE.user.freeFailures;
    const now = Date.now();
    const wrong = String((Number(codeAt(secret, now)) + 1) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < free; i += 1) {
      // A fresh challenge each time: the right password, then a wrong code.
      const { challenge } = await challengeFor(username);
      expect(await finish(challenge, { code: wrong }, { throttle: SLOW_THROTTLE })).toEqual({
        ok: false,
        reason: "INVALID_CODE",
      });
    }
    const { challenge } = await challengeFor(username);
    // TRAP: docs/behaviour.md §12.34 — counted before the code is checked: even the right one waits.
    expect(
      await finish(challenge, { code: codeAt(secret, now + STEP_MS) }, { throttle: SLOW_THROTTLE }),
    ).toMatchObject({
      ok: false,
      reason: "RATE_LIMITED",
    });
  });

  it("code guesses from one address count against that address across users", async () => {
    const throttle: ThrottlePolicy = {
      ...DEFAULT_THROTTLE,
      address: { windowMs: 60_000, freeFailures: 2, firstDelayMs: 60_000, maxDelayMs: 60_000 },
    };
    const a = await enrolledUser();
    const b = await enrolledUser();
    for (const who of [a, b]) {
      const { challenge } = await challengeFor(who.username);
      expect(
        await finish(challenge, { code: "000000x" }, { address: "198.51.100.9", throttle }),
      ).toEqual({
        ok: false,
        reason: "INVALID_CODE",
      });
    }
    const { challenge } = await challengeFor(a.username);
    expect(
      await finish(
        challenge,
        { code: codeAt(a.secret, Date.now() + STEP_MS) },
        {
          address: "198.51.100.9",
          throttle,
        },
      ),
    ).toMatchObject({ ok: false, reason: "RATE_LIMITED" });
  });

  it("a disabled user's challenge is refused", async () => {
    const { user, username, secret } = await enrolledUser();
    const { challenge } = await challengeFor(username);
    await db.prisma.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    const later = Date.now() + STEP_MS;
    expect(
      await finish(challenge, { code: codeAt(secret, later) }, { now: new Date(later) }),
    ).toEqual({ ok: false, reason: "CHALLENGE_EXPIRED" });
  });
});

describe("managing two-factor", () => {
  it("turning it off needs the current password and a code; then a password alone signs in", async () => {
    const { user, username, recoveryCodes } = await enrolledUser();
    const viewer = viewerOf(user);
    await expect(
      disableTwoFactor(db.prisma, secrets, viewer, {
        currentPassword: "wrong password!!",
        recoveryCode: recoveryCodes[0],
      }),
    ).rejects.toThrow(/current password/);
    expect(
      await disableTwoFactor(db.prisma, secrets, viewer, {
        currentPassword: PASSWORD,
        code: "000000x",
      }),
    ).toEqual({ ok: false, reason: "INVALID_CODE" });
    expect(
      await disableTwoFactor(db.prisma, secrets, viewer, {
        currentPassword: PASSWORD,
        recoveryCode: recoveryCodes[1],
      }),
    ).toEqual({ ok: true, value: true });
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row).toMatchObject({ totpCiphertext: null, totpKeyId: null, totpEnabledAt: null });
    expect(await db.prisma.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    expect(await signIn(db.prisma, { username, password: PASSWORD }, SESSION)).toMatchObject({
      ok: true,
    });
  });

  it("regenerating recovery codes needs a code and retires every old one", async () => {
    const { user, username, secret, recoveryCodes } = await enrolledUser();
    const viewer = viewerOf(user);
    expect(await regenerateRecoveryCodes(db.prisma, secrets, viewer, "000000x")).toEqual({
      ok: false,
      reason: "INVALID_CODE",
    });
    // A recovery code is not a code here: it cannot mint new ones.
    expect(
      await regenerateRecoveryCodes(db.prisma, secrets, viewer, recoveryCodes[0] ?? ""),
    ).toEqual({ ok: false, reason: "INVALID_CODE" });
    const fresh = await regenerateRecoveryCodes(
      db.prisma,
      secrets,
      viewer,
      codeAt(secret, Date.now()),
    );
    if (!fresh.ok) throw new Error("the right code was refused");
    expect(fresh.value).toHaveLength(RECOVERY_CODE_COUNT);
    const { challenge } = await challengeFor(username);
    expect(await finish(challenge, { recoveryCode: recoveryCodes[2] })).toEqual({
      ok: false,
      reason: "INVALID_CODE",
    });
    expect(await finish(challenge, { recoveryCode: fresh.value[0] })).toMatchObject({ ok: true });
  });

  it("an administrator's reset clears the secret, the recovery codes and pending sign-ins, and is audited", async () => {
    const { user, username } = await enrolledUser();
    await challengeFor(username);
    const admin: Viewer = { ...viewerOf({ id: user.id, username: "boss" }), isAdmin: true };
    await resetTwoFactor(db.prisma, admin, user.id);
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row).toMatchObject({ totpCiphertext: null, totpKeyId: null, totpEnabledAt: null });
    expect(await db.prisma.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.prisma.signInChallenge.count({ where: { userId: user.id } })).toBe(0);
    const audit = await db.prisma.auditLog.findFirst({
      where: { action: "user.twoFactor.reset", targetId: user.id },
    });
    expect(audit?.details).toEqual({ wasEnabled: true });
    expect(await signIn(db.prisma, { username, password: PASSWORD }, SESSION)).toMatchObject({
      ok: true,
    });
  });
});
