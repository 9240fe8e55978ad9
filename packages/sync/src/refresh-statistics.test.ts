import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { needsFreshStatistics } from "./refresh-statistics.ts";
import { createConnection, makeVm, okList, syncSnapshot } from "./testing/builders.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.close());

/** What the planner believes about the guests table, and when it was last analysed. */
async function guestTableStatistics() {
  const [row] = await db.prisma.$queryRawUnsafe<{ rows: number; analyzedAt: Date | null }[]>(
    `SELECT c.reltuples::float8 AS rows, greatest(s.last_analyze, s.last_autoanalyze) AS "analyzedAt"
     FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid
     WHERE c.oid = 'virtual_machines'::regclass`,
  );
  return row;
}

const guests = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => makeVm(from + i));

describe("planner statistics after a sync", () => {
  it("a sync that adds many guests leaves the planner knowing they are there", async () => {
    const connectionId = await createConnection(db.prisma, "big");
    await syncSnapshot(db.prisma, connectionId, { lists: [okList("pve1/qemu", guests(1, 120))] });
    const after = await guestTableStatistics();
    expect(after?.rows).toBe(120);
    expect(after?.analyzedAt).not.toBeNull();
  });

  it("the statistics skip a guest's details document, which no query compares whole", async () => {
    const columns = await db.prisma.$queryRawUnsafe<{ column: string }[]>(
      `SELECT attname::text AS column FROM pg_stats
       WHERE tablename = 'virtual_machines' AND attname IN ('name', 'details') ORDER BY attname`,
    );
    expect(columns.map((c) => c.column)).toEqual(["name"]);
  });

  it("a sync that changes a few guests of many leaves the statistics alone", async () => {
    const connectionId = await createConnection(db.prisma, "steady");
    await syncSnapshot(db.prisma, connectionId, {
      lists: [okList("pve1/qemu", guests(1000, 120))],
    });
    const before = await guestTableStatistics();
    const changed = guests(1000, 120).map((vm, i) =>
      i < 3 ? { ...vm, state: "STOPPED" as const } : vm,
    );
    await syncSnapshot(db.prisma, connectionId, { lists: [okList("pve1/qemu", changed)] });
    expect(await guestTableStatistics()).toEqual(before);
  });

  it.each([
    [49, -1, false],
    [50, -1, true],
    [50, 0, true],
    [149, 1000, false],
    [150, 1000, true],
  ])("%i guests rewritten in a table of %i rows: refresh %s", (rewritten, rows, expected) => {
    expect(needsFreshStatistics(rewritten, rows)).toBe(expected);
  });
});
