// Sign-in rules on the real database (PGlite, or PostgreSQL with DATABASE_URL): names match
// exactly, attempts are counted before passwords are checked, and a user waits, never is locked.
import { applyMigrations, readMigrations } from "@hyperlens/db";
import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as passwords from "../auth/passwords.ts";
import { DEFAULT_THROTTLE, type ThrottlePolicy } from "../auth/throttle.ts";
import { signIn } from "./sign-in.ts";
import { createUser } from "./users.ts";

// The real functions, wrapped only to count how many passwords were checked.
vi.mock("../auth/passwords.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../auth/passwords.ts")>();
  return {
    ...real,
    verifyPassword: vi.fn(real.verifyPassword),
    verifyAgainstDummy: vi.fn(real.verifyAgainstDummy),
  };
});

const PASSWORD = "correct horse battery staple";
const SESSION = { idleMs: 60_000, maxMs: 3_600_000 };
const passwordsChecked = () =>
  vi.mocked(passwords.verifyPassword).mock.calls.length +
  vi.mocked(passwords.verifyAgainstDummy).mock.calls.length;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await createUser(db.prisma, { username: "victim", password: PASSWORD }, null);
  await createUser(db.prisma, { username: "admin", password: PASSWORD, isAdmin: true }, null);
});
afterAll(async () => db?.close());
beforeEach(async () => {
  await db.prisma.loginThrottle.deleteMany();
  vi.mocked(passwords.verifyPassword).mockClear();
  vi.mocked(passwords.verifyAgainstDummy).mockClear();
});

const attempt = (username: string, password: string, address?: string, throttle?: ThrottlePolicy) =>
  signIn(db.prisma, { username, password, address }, SESSION, throttle);

describe("user names", () => {
  it("are matched exactly, never as a LIKE pattern", async () => {
    expect(await attempt("vict_m", PASSWORD)).toEqual({ ok: false, reason: "INVALID_CREDENTIALS" });
    expect(await attempt("%", PASSWORD)).toEqual({ ok: false, reason: "INVALID_CREDENTIALS" });
    expect(await attempt("adm%", PASSWORD)).toEqual({ ok: false, reason: "INVALID_CREDENTIALS" });
  });

  it("are matched case-insensitively, and every spelling shares one limit", async () => {
    expect(await attempt("VICTIM", PASSWORD)).toMatchObject({ ok: true });
    for (const spelling of ["victim", "Victim", "VICTIM", "vIctim", "viCtim"])
      expect(await attempt(spelling, "wrong password!!")).toMatchObject({ ok: false });
    expect(await attempt("victIM", PASSWORD)).toMatchObject({ reason: "RATE_LIMITED" });
  });

  it("of a disabled account do not sign in, even with the right password", async () => {
    const user = await createUser(db.prisma, { username: "gone", password: PASSWORD }, null);
    await db.prisma.user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    expect(await attempt("gone", PASSWORD)).toEqual({ ok: false, reason: "INVALID_CREDENTIALS" });
  });

  it("are unique case-insensitively, in the service and in the database", async () => {
    await expect(
      createUser(db.prisma, { username: "Victim", password: PASSWORD }, null),
    ).rejects.toThrow("A user named victim already exists.");
    await expect(
      db.prisma.user.create({ data: { username: "VICTIM", passwordHash: "x" } }),
    ).rejects.toMatchObject({ code: "P2002" });
  });

  it("taken by two creations at once give one user and one ValidationError, not a crash", async () => {
    const results = await Promise.allSettled(
      ["Racer", "RACER"].map((username) =>
        createUser(db.prisma, { username, password: PASSWORD }, null),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({
      reason: { name: "ValidationError", field: "username" },
    });
  });

  it("become unique on upgrade: the oldest keeps a name shared in another case, the others are renamed and audited", async () => {
    const migration = readMigrations().find((m) =>
      m.name.endsWith("_username_case_insensitive_unique"),
    );
    if (!migration) throw new Error("the migration is missing");
    // A database from before the migration, where two names differ only in case.
    await db.withExecutor((e) => e.exec('DROP INDEX "users_username_lower_key"'));
    const older = await db.prisma.user.create({
      data: { username: "Twin", passwordHash: "x", createdAt: new Date("2026-01-01T00:00:00Z") },
    });
    const newer = await db.prisma.user.create({ data: { username: "twin", passwordHash: "x" } });
    await db.withExecutor((e) =>
      applyMigrations(e, [...readMigrations(), { ...migration, name: `${migration.name}_again` }]),
    );
    const renamed = `twin-${newer.id.slice(0, 8)}`;
    const names = await db.prisma.user.findMany({ where: { id: { in: [older.id, newer.id] } } });
    expect(names.map((u) => u.username).sort()).toEqual(["Twin", renamed]);
    const audit = await db.prisma.auditLog.findMany({ where: { action: "user.rename" } });
    expect(audit).toMatchObject([{ targetId: newer.id, details: { from: "twin", to: renamed } }]);
    await expect(
      db.prisma.user.create({ data: { username: "TWIN", passwordHash: "x" } }),
    ).rejects.toMatchObject({ code: "P2002" });
  });
});

describe("the sign-in limit", () => {
  it("counts 24 wrong guesses sent at once atomically: only the free ones are checked", async () => {
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => attempt("victim", `wrong password ${i}`, "192.0.2.1")),
    );
    const reasons = answers.map((a) => (a.ok ? "OK" : a.reason));
    const free = 5; // the documented free failures per user name
    expect(reasons.filter((r) => r === "INVALID_CREDENTIALS")).toHaveLength(free);
    expect(reasons.filter((r) => r === "RATE_LIMITED")).toHaveLength(24 - free);
    expect(passwordsChecked()).toBe(free);
  });

  it("counts guesses at many names from one address atomically too", async () => {
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => attempt(`nobody${i}`, "wrong password!!", "192.0.2.2")),
    );
    const limit = 20; // the documented failures per address in 15 minutes
    expect(answers.filter((a) => !a.ok && a.reason === "INVALID_CREDENTIALS")).toHaveLength(limit);
    expect(passwordsChecked()).toBe(limit);
    // Another address is not held back by this one.
    expect(await attempt("victim", PASSWORD, "192.0.2.3")).toMatchObject({ ok: true });
  });

  it("does not charge an address for sign-ins that succeed", async () => {
    const strict: ThrottlePolicy = {
      ...DEFAULT_THROTTLE,
      address: { ...DEFAULT_THROTTLE.address, freeFailures: 2 },
    };
    for (let i = 0; i < 4; i++)
      expect(await attempt("admin", PASSWORD, "192.0.2.4", strict)).toMatchObject({ ok: true });
  });
});

describe("the wait after failures", () => {
  const quick: ThrottlePolicy = {
    ...DEFAULT_THROTTLE,
    user: { windowMs: 60_000, freeFailures: 2, firstDelayMs: 2_000, maxDelayMs: 2_000 },
  };

  it("makes a user wait a short, growing delay, not a lock; the right password then gets in", async () => {
    for (let i = 0; i < 4; i++) await attempt("victim", `wrong password ${i}`);
    const before = Date.now();
    await attempt("victim", "wrong password 4");
    const waiting = await attempt("victim", PASSWORD);
    // Five wrong guesses by anyone cost the real user a second, not a 15-minute lock.
    if (waiting.ok || waiting.reason !== "RATE_LIMITED") throw new Error("expected a wait");
    expect(waiting.retryAt.getTime() - before).toBeGreaterThanOrEqual(1_000);
    expect(waiting.retryAt.getTime() - before).toBeLessThanOrEqual(1_500);
    await vi.waitFor(
      async () => expect(await attempt("victim", PASSWORD)).toMatchObject({ ok: true }),
      {
        timeout: 3_000,
        interval: 100,
      },
    );
  });

  it("refuses even the right password during the delay, and a refused attempt does not extend it", async () => {
    await attempt("victim", "wrong password 1", undefined, quick);
    await attempt("victim", "wrong password 2", undefined, quick);
    const first = await attempt("victim", PASSWORD, undefined, quick);
    const second = await attempt("victim", "wrong password 3", undefined, quick);
    expect(first).toMatchObject({ ok: false, reason: "RATE_LIMITED" });
    expect(second).toEqual(first);
    expect(passwordsChecked()).toBe(2);
    if (first.ok || first.reason !== "RATE_LIMITED") throw new Error("expected a wait");
    await new Promise((resolve) => setTimeout(resolve, first.retryAt.getTime() - Date.now()));
    expect(await attempt("victim", PASSWORD, undefined, quick)).toMatchObject({ ok: true });
  });
});
