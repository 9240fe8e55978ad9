// Proxmox connections saved while saving wrote the defaults carry the old default of 4 requests per
// connection; the migration lets them read nodes side by side (docs/behaviour.md §3.7) and keeps
// every value someone chose, and every other kind's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, readMigrations } from "./migrate.ts";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.ts";

describe("the Proxmox default concurrency migration", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("drops a stored 4 from Proxmox connections only, and keeps chosen values", async () => {
    const migration = readMigrations().find((m) => m.name.endsWith("_proxmox_default_concurrency"));
    if (!migration) throw new Error("the migration is missing");
    const settings = await db.withExecutor(async (e) => {
      await e.exec(`
        INSERT INTO "connections" ("id", "kind", "name", "baseUrl", "username", "settings", "updatedAt") VALUES
          ('00000000-0000-4000-8000-000000000001', 'PROXMOX', 'old default', 'https://a:8006', 'u@pve', '{"maxConcurrentRequests": 4, "agentAddresses": true}', now()),
          ('00000000-0000-4000-8000-000000000002', 'PROXMOX', 'chosen', 'https://b:8006', 'u@pve', '{"maxConcurrentRequests": 8}', now()),
          ('00000000-0000-4000-8000-000000000003', 'VCENTER', 'vcenter', 'https://c', 'u', '{"maxConcurrentRequests": 4}', now()),
          ('00000000-0000-4000-8000-000000000004', 'PROXMOX', 'none stored', 'https://d:8006', 'u@pve', '{}', now());
      `);
      await applyMigrations(e, [
        ...readMigrations(),
        { ...migration, name: `${migration.name}_again` },
      ]);
      return e.query<{ name: string; settings: unknown }>(
        `SELECT "name", "settings" FROM "connections" ORDER BY "name"`,
      );
    });
    expect(settings).toEqual([
      { name: "chosen", settings: { maxConcurrentRequests: 8 } },
      { name: "none stored", settings: {} },
      { name: "old default", settings: { agentAddresses: true } },
      { name: "vcenter", settings: { maxConcurrentRequests: 4 } },
    ]);
  });
});
