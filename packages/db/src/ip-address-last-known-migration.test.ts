// The isLastKnown migration on a database that already holds addresses: the ones the engine kept
// as last-known (AGENT, older than their guest's last rewrite) are marked, the rest are not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, readMigrations } from "./migrate.ts";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.ts";

describe("the ip_addresses isLastKnown migration", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("marks AGENT addresses older than their guest's last rewrite, and only those", async () => {
    const migration = readMigrations().find((m) => m.name.endsWith("_ip_address_last_known"));
    if (!migration) throw new Error("the migration is missing");
    const rows = await db.withExecutor(async (e) => {
      await e.exec(`
        ALTER TABLE "ip_addresses" DROP COLUMN "isLastKnown";
        INSERT INTO "connections" ("id", "kind", "name", "baseUrl", "username", "updatedAt") VALUES
          ('00000000-0000-4000-8000-000000000001', 'PROXMOX', 'pve', 'https://pve.example', 'a@pve', now());
        INSERT INTO "virtual_machines" ("id", "connectionId", "source", "externalId", "name", "changedAt") VALUES
          ('00000000-0000-4000-8000-000000000011', '00000000-0000-4000-8000-000000000001', 'PROXMOX', '100', 'vm', '2026-03-01T00:05:00Z');
        INSERT INTO "ip_addresses" ("id", "vmId", "address", "origin", "lastConfirmedAt") VALUES
          ('00000000-0000-4000-8000-000000000021', '00000000-0000-4000-8000-000000000011', '10.0.0.1', 'AGENT', '2026-03-01T00:05:00Z'),
          ('00000000-0000-4000-8000-000000000022', '00000000-0000-4000-8000-000000000011', '10.0.0.2', 'AGENT', '2026-03-01T00:01:00Z'),
          ('00000000-0000-4000-8000-000000000023', '00000000-0000-4000-8000-000000000011', '10.0.0.3', 'STATIC_CONFIG', '2026-03-01T00:01:00Z');
      `);
      await applyMigrations(e, [
        ...readMigrations(),
        { ...migration, name: `${migration.name}_again` },
      ]);
      return e.query<{ address: string; isLastKnown: boolean }>(
        `SELECT "address", "isLastKnown" FROM "ip_addresses" ORDER BY 1`,
      );
    });
    expect(rows).toEqual([
      { address: "10.0.0.1", isLastKnown: false },
      { address: "10.0.0.2", isLastKnown: true },
      { address: "10.0.0.3", isLastKnown: false },
    ]);
  });
});
