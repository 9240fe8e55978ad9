import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseStartupError, openDatabase } from "./database.ts";
import { applyMigrations, pendingMigrations, readMigrations } from "./migrate.ts";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.ts";

describe("database", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("applies every committed migration at open and records it for prisma migrate status", async () => {
    await expect(db.checkReady()).resolves.toBeUndefined();
    const rows = await db.withExecutor((e) =>
      e.query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations"'),
    );
    expect(rows.map((r) => r.migration_name)).toEqual(readMigrations().map((m) => m.name));
  });

  it("applies nothing twice", async () => {
    expect(await db.withExecutor((e) => applyMigrations(e))).toEqual([]);
  });

  it("refuses to start when an applied migration was edited", async () => {
    const edited = readMigrations().map((m, i) =>
      i === 0 ? { ...m, checksum: "0".repeat(64) } : m,
    );
    await expect(db.withExecutor((e) => applyMigrations(e, edited))).rejects.toThrow(
      /changed after it was applied/,
    );
  });

  it("reports a migration that is not applied as pending", async () => {
    const extra = { name: "99999999999999_later", sql: "SELECT 1", checksum: "x" };
    const pending = await db.withExecutor((e) =>
      pendingMigrations(e, [...readMigrations(), extra]),
    );
    expect(pending).toEqual(["99999999999999_later"]);
  });

  it("lower-cases stored addresses, keeping one row where two differed only in case", async () => {
    const connection = await db.prisma.connection.create({
      data: { kind: "PROXMOX", name: "case", baseUrl: "https://pve.invalid", username: "u@pve" },
    });
    const vm = await db.prisma.virtualMachine.create({
      data: { connectionId: connection.id, source: "PROXMOX", externalId: "1", name: "a" },
    });
    const row = { vmId: vm.id, origin: "AGENT" as const, interfaceName: "eth0" };
    await db.prisma.ipAddress.createMany({
      data: [
        { ...row, address: "2001:DB8::1" },
        { ...row, address: "2001:db8::1" },
        { ...row, address: "2001:DB8::2" },
        { ...row, address: "2001:Db8::2" },
        { ...row, address: "FE80::3", interfaceName: "eth1" },
        { ...row, address: "10.0.0.4" },
      ],
    });
    const migration = readMigrations().find((m) => m.name.endsWith("_ip_addresses_lower_case"));
    if (!migration) throw new Error("the migration is missing");
    await db.withExecutor((e) =>
      applyMigrations(e, [...readMigrations(), { ...migration, name: `${migration.name}_again` }]),
    );
    const rows = await db.prisma.ipAddress.findMany({ where: { vmId: vm.id } });
    expect(rows.map((r) => `${r.interfaceName} ${r.address}`).sort()).toEqual([
      "eth0 10.0.0.4",
      "eth0 2001:db8::1",
      "eth0 2001:db8::2",
      "eth1 fe80::3",
    ]);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "compiles no query with JIT on PostgreSQL, on every pooled session",
    async () => {
      // Five at once take five sessions of the pool.
      const settings = await Promise.all(
        Array.from(
          { length: 5 },
          () =>
            db.prisma.$queryRaw<
              { jit: string }[]
            >`SELECT current_setting('jit') AS jit, pg_sleep(0.05)::text AS slept`,
        ),
      );
      expect(settings.map((rows) => rows[0]?.jit)).toEqual(Array(5).fill("off"));
    },
  );

  it.skipIf(!process.env.DATABASE_URL)(
    "opens at most the configured pool's connections, and a query waits for one only so long",
    async () => {
      // A database of its own: the tests above leave a newer release's migration in theirs.
      const own = await createTestDatabase();
      const small = await openDatabase({
        kind: "postgres",
        url: own.url ?? "",
        pool: { size: 1, timeoutMs: 200 },
      });
      try {
        // The one connection is busy for a second: a second query gives up after 200 ms.
        const busy = small.withExecutor((e) => e.query("SELECT pg_sleep(1)"));
        await expect(small.prisma.$queryRaw`SELECT 1`).rejects.toThrow(
          /timeout exceeded when trying to connect/,
        );
        await busy;
        await expect(small.prisma.$queryRaw`SELECT 1 AS one`).resolves.toEqual([{ one: 1 }]);
      } finally {
        await small.close();
        await own.close();
      }
    },
  );

  it.skipIf(Boolean(process.env.DATABASE_URL))(
    "samples a tenth of PostgreSQL's default rows when the embedded database analyses a table",
    async () => {
      const histogram = await db.withExecutor(async (e) => {
        await e.exec(
          "CREATE TABLE sampled AS SELECT g AS n FROM generate_series(1, 5000) AS g; ANALYZE sampled",
        );
        return e.query<{ bounds: number }>(
          `SELECT array_length(histogram_bounds::text::int[], 1) AS bounds
           FROM pg_stats WHERE tablename = 'sampled' AND attname = 'n'`,
        );
      });
      // A statistics target of 10 keeps 11 bounds (3,000 sampled rows); the default keeps 101.
      expect(histogram).toEqual([{ bounds: 11 }]);
    },
  );

  it("lets the event loop turn between statements, so a long run of them holds no request up", async () => {
    let hasTurned = false;
    // A sync writes a chunk of guests in one transaction, statement after statement.
    await db.prisma.$transaction(async (tx) => {
      setTimeout(() => {
        hasTurned = true;
      }, 0);
      for (let i = 0; i < 100 && !hasTurned; i++) await tx.$queryRaw`SELECT 1`;
    });
    expect(hasTurned).toBe(true);
  });

  it("turns a unique violation into Prisma's P2002", async () => {
    await db.prisma.user.create({ data: { username: "dup", passwordHash: "x" } });
    await expect(
      db.prisma.user.create({ data: { username: "dup", passwordHash: "x" } }),
    ).rejects.toMatchObject({ code: "P2002" });
  });
});

describe("opening the database", () => {
  it("names the server when PostgreSQL is unreachable", async () => {
    await expect(
      openDatabase({ kind: "postgres", url: "postgresql://nobody@127.0.0.1:1/none" }),
    ).rejects.toThrow(DatabaseStartupError);
    await expect(
      openDatabase({ kind: "postgres", url: "postgresql://nobody@127.0.0.1:1/none" }),
    ).rejects.toThrow(/Could not connect to PostgreSQL at 127.0.0.1:1\/none/);
  });

  it("keeps a second process off an embedded data directory in use", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hl-data-"));
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(dataDir, "hyperlens.pid"), String(process.ppid));
    await expect(openDatabase({ kind: "pglite", dataDir })).rejects.toThrow(
      /Another Hyperlens process \(pid \d+\) is using the data directory/,
    );
  });
});
