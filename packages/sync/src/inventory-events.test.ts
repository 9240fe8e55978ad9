import { rawTransaction } from "@hyperlens/db";
import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendInventoryEvents, type NewInventoryEvent } from "./inventory-events.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.close());

const connectionId = "00000000-0000-4000-8000-0000000000c1";
const event = (name: string): NewInventoryEvent => ({
  type: "VM_ADDED",
  connectionId,
  subjectName: name,
  data: {},
  at: new Date(),
});

async function visibleNames(): Promise<string[]> {
  const rows = await db.prisma.inventoryEvent.findMany({ orderBy: { sequence: "asc" } });
  return rows.map((r) => r.subjectName ?? "");
}

// PGlite has one connection: its transactions run one after another whatever the writer does.
const isOneConnection = !process.env.DATABASE_URL;

describe("the change feed's writer (docs/behaviour.md §14.1)", () => {
  it.skipIf(isOneConnection)(
    "a later writer waits for an earlier one to commit, so sequence order is commit order",
    async () => {
      let releaseFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      let firstAppended!: () => void;
      const firstHasAppended = new Promise<void>((resolve) => {
        firstAppended = resolve;
      });
      const first = rawTransaction(db.prisma, async (tx) => {
        await appendInventoryEvents(tx, [event("first")]);
        firstAppended();
        await firstMayCommit;
      });
      await firstHasAppended;
      const second = rawTransaction(db.prisma, (tx) =>
        appendInventoryEvents(tx, [event("second")]),
      );
      // Give the second writer every chance to commit ahead; it must not.
      await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 300))]);
      expect(await visibleNames()).toEqual([]);
      releaseFirst();
      await Promise.all([first, second]);
      expect(await visibleNames()).toEqual(["first", "second"]);
    },
  );

  it("appending nothing takes no lock and writes nothing", async () => {
    const before = await db.prisma.inventoryEvent.count();
    await rawTransaction(db.prisma, (tx) => appendInventoryEvents(tx, []));
    expect(await db.prisma.inventoryEvent.count()).toBe(before);
  });
});
