// A database a newer release has migrated is never opened by an older build: start-up stops with a
// message naming the migrations it does not know, before it changes anything.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, type Migration, readMigrations, type SqlExecutor } from "./migrate.ts";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.ts";

const NEWER = ["20991231000000_from_a_newer_release", "20991231000100_and_another"];

async function recordAsApplied(e: SqlExecutor, names: string[]) {
  for (const name of names) {
    await e.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES (gen_random_uuid()::text, repeat('0', 64), $1, now(), now(), 1)`,
      [name],
    );
  }
}

const appliedNames = (e: SqlExecutor) =>
  e
    .query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`,
    )
    .then((rows) => rows.map((row) => row.migration_name));

describe("a database migrated by a newer release", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await db.withExecutor((e) => recordAsApplied(e, NEWER));
  });
  afterAll(async () => {
    await db?.close();
  });

  it("is refused with a message naming the unknown migrations, and nothing is applied", async () => {
    // This build also has one migration the database lacks: refusing must come before it runs.
    const pending: Migration = {
      name: "20991230000000_pending_here",
      sql: 'CREATE TABLE "must_not_exist" (x int)',
      checksum: "1".repeat(64),
    };
    const outcome = await db.withExecutor(async (e) => {
      const before = await appliedNames(e);
      const error = await applyMigrations(e, [...readMigrations(), pending]).then(
        () => undefined,
        (caught: Error) => caught,
      );
      const [table] = await e.query<{ exists: boolean }>(
        `SELECT to_regclass('"must_not_exist"') IS NOT NULL AS exists`,
      );
      return { before, after: await appliedNames(e), error, tableExists: table?.exists };
    });
    expect(outcome.error?.message).toMatch(/newer Hyperlens release/);
    for (const name of NEWER) expect(outcome.error?.message).toContain(name);
    expect(outcome.error?.message).toMatch(/restore a backup/);
    expect(outcome.tableExists).toBe(false);
    expect(outcome.after).toEqual(outcome.before);
  });
});
