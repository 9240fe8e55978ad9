import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import type { GuestListing, ListedGuest } from "@hyperlens/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLightPollCandidates } from "./light-poll-candidates.ts";
import { planLightPoll } from "./light-poll-plan.ts";
import { createConnection, makeVm, okList, syncSnapshot } from "./testing/builders.ts";

let db: TestDatabase;
let connectionId: string;

const range = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => makeVm(from + i));
const listed = (id: number, more: Partial<ListedGuest> = {}): ListedGuest => ({
  externalId: String(id),
  listKey: "pve1/qemu",
  name: `vm-${id}`,
  state: "RUNNING",
  ...more,
});
const complete = (guests: ListedGuest[]): GuestListing => ({ isComplete: true, guests });

/** Every stored row, as the poll read them before the comparison moved into the database. */
async function allStored() {
  const rows = await db.prisma.virtualMachine.findMany({ where: { connectionId } });
  return rows.map((row) => ({ ...row, isRemoved: row.removedAt !== null }));
}

/** The plan from the candidates, and from every stored row: they must agree. */
async function bothPlans(listing: GuestListing) {
  const candidates = await readLightPollCandidates(db.prisma, connectionId, listing);
  const fromCandidates = planLightPoll(candidates.stored, candidates.listing, candidates.known);
  const fromAll = planLightPoll(await allStored(), listing);
  const summary = (plan: ReturnType<typeof planLightPoll>) => ({
    toRead: plan.toRead.map((t) => [t.guest.externalId, t.changes]),
    removals: plan.removals.map((r) => r.externalId).sort(),
    heldBack: plan.heldBack,
    guard: plan.guard,
  });
  return { candidates, fromCandidates: summary(fromCandidates), fromAll: summary(fromAll) };
}

beforeAll(async () => {
  db = await createTestDatabase();
  connectionId = await createConnection(db.prisma);
  // Seven guests stored, the last one removed since.
  await syncSnapshot(db.prisma, connectionId, { lists: [okList("pve1/qemu", range(100, 7))] });
  await syncSnapshot(db.prisma, connectionId, { lists: [okList("pve1/qemu", range(100, 6))] });
});
afterAll(async () => db?.close());

describe("the light poll's comparison in the database (docs/behaviour.md §8.7, §8.8)", () => {
  it("returns only the guests that may differ, and the plan is the one every row gives", async () => {
    const { candidates, fromCandidates, fromAll } = await bothPlans(
      complete([
        listed(100),
        listed(101, { name: "renamed" }),
        listed(102, { state: "STOPPED" }),
        listed(103, { listKey: "pve2/qemu" }),
        // 104 is missing; 105's node is offline: present, not compared.
        listed(105, { name: "unknown", state: undefined }),
        listed(106),
        listed(107),
        // Listed twice while migrating: the first entry wins.
        listed(100, { name: "second entry" }),
      ]),
    );
    expect(candidates.listing.guests.map((g) => g.externalId)).toEqual([
      "101",
      "102",
      "103",
      "106",
      "107",
    ]);
    expect(candidates.stored.map((row) => row.externalId).sort()).toEqual([
      "101",
      "102",
      "103",
      "104",
      "106",
    ]);
    expect(candidates.known).toBe(6);
    expect(fromCandidates).toEqual(fromAll);
    expect(fromCandidates.toRead).toEqual([
      ["101", ["renamed"]],
      ["102", ["power"]],
      ["103", ["moved"]],
      ["106", ["restored"]],
      ["107", ["added"]],
    ]);
    expect(fromCandidates.removals).toEqual(["104"]);
  });

  it("an unchanged listing returns no guest at all", async () => {
    const candidates = await readLightPollCandidates(
      db.prisma,
      connectionId,
      complete([100, 101, 102, 103, 104, 105].map((id) => listed(id))),
    );
    expect(candidates).toMatchObject({ stored: [], known: 6, listing: { guests: [] } });
  });

  it("a guest listed on another host is a candidate; a list that tells no host compares none", async () => {
    const { candidates } = await bothPlans(
      complete([
        listed(100, { hostName: "esx-2" }),
        ...[101, 102, 103, 104, 105].map((id) => listed(id)),
      ]),
    );
    expect(candidates.listing.guests.map((g) => g.externalId)).toEqual(["100"]);
  });

  it("the guard counts every live guest, not only those compared (docs/behaviour.md §3.5)", async () => {
    // Three of six listed unchanged: half are present, so the other three are removed.
    const half = await bothPlans(complete([100, 101, 102].map((id) => listed(id))));
    expect(half.fromCandidates).toEqual(half.fromAll);
    expect(half.fromCandidates.removals).toEqual(["103", "104", "105"]);
    // Two of six: the guard holds all four back.
    const few = await bothPlans(complete([100, 101].map((id) => listed(id))));
    expect(few.fromCandidates).toEqual(few.fromAll);
    expect(few.fromCandidates).toMatchObject({ removals: [], heldBack: 4 });
  });

  it("an empty listing finds every live guest missing", async () => {
    const { candidates } = await bothPlans(complete([]));
    expect(candidates.stored.map((row) => row.externalId).sort()).toEqual([
      "100",
      "101",
      "102",
      "103",
      "104",
      "105",
    ]);
  });
});
