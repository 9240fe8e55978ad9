import type { GuestListing, ListedGuest } from "@hyperlens/shared";
import { describe, expect, it } from "vitest";
import { planLightPoll, type StoredListedState } from "./light-poll-plan.ts";

const row = (id: number, more: Partial<StoredListedState> = {}): StoredListedState => ({
  id: `row-${id}`,
  externalId: String(id),
  listKey: "pve1/qemu",
  name: `vm${id}`,
  state: "RUNNING",
  hostName: null,
  fingerprint: "f",
  confirmation: "CONFIRMED",
  isRemoved: false,
  ...more,
});
const listed = (id: number, more: Partial<ListedGuest> = {}): ListedGuest => ({
  externalId: String(id),
  listKey: "pve1/qemu",
  name: `vm${id}`,
  state: "RUNNING",
  ...more,
});
const complete = (guests: ListedGuest[]): GuestListing => ({ isComplete: true, guests });
const stored = [1, 2, 3, 4].map((id) => row(id));

describe("planLightPoll (docs/behaviour.md §8.7, §8.8)", () => {
  it("an unchanged listing plans nothing", () => {
    const plan = planLightPoll(stored, complete(stored.map((r) => listed(Number(r.externalId)))));
    expect(plan).toMatchObject({ toRead: [], removals: [], heldBack: 0 });
  });

  it("reads added, restored, moved, renamed and power-changed guests, and only those", () => {
    const plan = planLightPoll(
      [...stored, row(5, { isRemoved: true })],
      complete([
        listed(1, { listKey: "pve2/qemu" }),
        listed(2, { name: "new name" }),
        listed(3, { state: "STOPPED" }),
        listed(4),
        listed(5),
        listed(6),
      ]),
    );
    expect(plan.toRead.map((t) => [t.guest.externalId, t.changes])).toEqual([
      ["1", ["moved"]],
      ["2", ["renamed"]],
      ["3", ["power"]],
      ["5", ["restored"]],
      ["6", ["added"]],
    ]);
    expect(plan.removals).toEqual([]);
  });

  it("a guest listed on another host is moved (vCenter)", () => {
    const plan = planLightPoll(
      [row(1, { hostName: "esx-1" }), row(2, { hostName: "esx-1" })],
      complete([listed(1, { hostName: "esx-2" }), listed(2, { hostName: "esx-1" })]),
    );
    expect(plan.toRead.map((t) => [t.guest.externalId, t.changes])).toEqual([["1", ["moved"]]]);
  });

  it("an incomplete listing removes nothing", () => {
    const plan = planLightPoll(stored, {
      isComplete: false,
      reason: "page 2 failed",
      guests: [listed(1), listed(2), listed(3)],
    });
    expect(plan.removals).toEqual([]);
    expect(plan.heldBack).toBe(0);
  });

  it("a complete listing removes the missing guest when the guard allows it", () => {
    const plan = planLightPoll(stored, complete([listed(1), listed(2), listed(3)]));
    expect(plan.removals.map((r) => r.externalId)).toEqual(["4"]);
  });

  it("the guard holds when fewer than half the known guests are listed", () => {
    const plan = planLightPoll(stored, complete([listed(1)]));
    expect(plan.removals).toEqual([]);
    expect(plan.heldBack).toBe(3);
    expect(plan.guard?.allowsRemoval).toBe(false);
  });

  it("a guest the list cannot vouch for is present, not compared and not read", () => {
    const plan = planLightPoll(
      stored,
      complete([
        listed(1),
        listed(2),
        listed(3),
        { ...listed(4, { name: "?" }), state: undefined },
      ]),
    );
    expect(plan).toMatchObject({ toRead: [], removals: [] });
  });
});
