// The RUN_SYNC migration on a database that already holds users and tokens: whoever may view keeps
// the right to start syncs that viewing used to include; nobody else gains it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, readMigrations, type SqlExecutor } from "./migrate.ts";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.ts";

const OLD_VALUES =
  "'VIEW_INVENTORY', 'MANAGE_PROXMOX', 'MANAGE_VCD', 'MANAGE_VCENTER', 'MANAGE_USERS'";

/** Puts the enum and both columns back as they were before the migration (no RUN_SYNC). */
async function restoreEnumBeforeRunSync(e: SqlExecutor) {
  await e.exec(`
    CREATE TYPE "Capability_old" AS ENUM (${OLD_VALUES});
    ALTER TABLE "users" ALTER COLUMN "capabilities" TYPE "Capability_old"[]
      USING array_remove("capabilities"::text[], 'RUN_SYNC')::"Capability_old"[];
    ALTER TABLE "api_tokens" ALTER COLUMN "capabilities" TYPE "Capability_old"[]
      USING array_remove("capabilities"::text[], 'RUN_SYNC')::"Capability_old"[];
    DROP TYPE "Capability";
    ALTER TYPE "Capability_old" RENAME TO "Capability";
  `);
}

describe("the RUN_SYNC capability migration", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("grants RUN_SYNC to every user and token that may view, and to nobody else", async () => {
    const migration = readMigrations().find((m) => m.name.endsWith("_run_sync_capability"));
    if (!migration) throw new Error("the migration is missing");
    const capabilities = await db.withExecutor(async (e) => {
      await restoreEnumBeforeRunSync(e);
      await e.exec(`
        INSERT INTO "users" ("id", "username", "passwordHash", "capabilities", "isAdmin", "updatedAt") VALUES
          ('00000000-0000-4000-8000-000000000001', 'viewer', 'x', '{VIEW_INVENTORY}', false, now()),
          ('00000000-0000-4000-8000-000000000002', 'manager', 'x', '{VIEW_INVENTORY,MANAGE_PROXMOX}', false, now()),
          ('00000000-0000-4000-8000-000000000003', 'proxmox-only', 'x', '{MANAGE_PROXMOX}', false, now()),
          ('00000000-0000-4000-8000-000000000004', 'admin', 'x', '{}', true, now());
        INSERT INTO "api_tokens" ("id", "name", "prefix", "tokenHash", "capabilities", "createdById") VALUES
          ('00000000-0000-4000-8000-000000000011', 'view', 'hlk_a', 'h1', '{VIEW_INVENTORY}', '00000000-0000-4000-8000-000000000002'),
          ('00000000-0000-4000-8000-000000000012', 'manage', 'hlk_b', 'h2', '{MANAGE_PROXMOX}', '00000000-0000-4000-8000-000000000002');
      `);
      await applyMigrations(e, [
        ...readMigrations(),
        { ...migration, name: `${migration.name}_again` },
      ]);
      return e.query<{ name: string; capabilities: string }>(
        `SELECT "username" AS name, array_to_string("capabilities"::text[], ',') AS capabilities FROM "users"
         UNION ALL
         SELECT 'token ' || "name", array_to_string("capabilities"::text[], ',') FROM "api_tokens"
         ORDER BY 1`,
      );
    });
    expect(capabilities).toEqual([
      { name: "admin", capabilities: "" },
      { name: "manager", capabilities: "VIEW_INVENTORY,MANAGE_PROXMOX,RUN_SYNC" },
      { name: "proxmox-only", capabilities: "MANAGE_PROXMOX" },
      { name: "token manage", capabilities: "MANAGE_PROXMOX" },
      { name: "token view", capabilities: "VIEW_INVENTORY,RUN_SYNC" },
      { name: "viewer", capabilities: "VIEW_INVENTORY,RUN_SYNC" },
    ]);
  });
});
