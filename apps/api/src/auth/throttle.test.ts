// The delay rule of sign-in attempts, on the real database with a clock the test moves.
import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_THROTTLE, takeAttempt } from "./throttle.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.close());
beforeEach(async () => {
  await db.prisma.loginThrottle.deleteMany();
});

/** Takes attempts as soon as each is allowed; the waits between them, in seconds. */
async function waitsOf(key: string, rule = DEFAULT_THROTTLE.user, attempts = 16) {
  let now = new Date("2026-12-04T12:00:00.000Z");
  const waits: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const retryAt = await takeAttempt(db.prisma, key, rule, now);
    if (retryAt) throw new Error(`attempt ${i} was refused`);
    const row = await db.prisma.loginThrottle.findUniqueOrThrow({ where: { key } });
    const wait = row.lockedUntil ? row.lockedUntil.getTime() - now.getTime() : 0;
    waits.push(wait / 1000);
    now = new Date(now.getTime() + wait);
  }
  return waits;
}

describe("the wait between sign-in attempts", () => {
  it("is none for five failures of a user, then doubles from 1 s up to 5 minutes", async () => {
    expect(await waitsOf("user:name:someone")).toEqual([
      0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300,
    ]);
  });

  it("refuses an attempt inside the wait without counting it, and says when to come back", async () => {
    const rule = DEFAULT_THROTTLE.user;
    const now = new Date("2026-12-04T12:00:00.000Z");
    for (let i = 0; i < rule.freeFailures; i++)
      await takeAttempt(db.prisma, "user:name:x", rule, now);
    const later = new Date(now.getTime() + 500);
    expect(await takeAttempt(db.prisma, "user:name:x", rule, later)).toEqual(
      new Date(now.getTime() + 1000),
    );
    const row = await db.prisma.loginThrottle.findUniqueOrThrow({ where: { key: "user:name:x" } });
    expect(row.failures).toBe(rule.freeFailures);
  });

  it("holds an address back 15 minutes after 20 failures, and forgets a window's failures", async () => {
    const waits = await waitsOf("addr:192.0.2.9", DEFAULT_THROTTLE.address, 22);
    expect(waits.slice(0, 19)).toEqual(Array(19).fill(0));
    expect(waits[19]).toBe(15 * 60);
    // The wait ended the 15-minute window: counting starts again.
    expect(waits[20]).toBe(0);
  });
});
