import type { Confirmation, ListRead } from "@hyperlens/shared";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planReconcile, type StoredVmState } from "./plan.ts";
import { makeVm, okList } from "./testing/builders.ts";

const stored = (externalId: string, listKey: string, extra: Partial<StoredVmState> = {}) => ({
  id: `id-${externalId}`,
  externalId,
  listKey,
  name: `vm-${externalId}`,
  fingerprint: "old",
  confirmation: "CONFIRMED" as Confirmation,
  isRemoved: false,
  ...extra,
});

describe("planning a sync", () => {
  it("a guest seen in any ok list is never a removal candidate", () => {
    const plan = planReconcile(
      [stored("1", "pve1/qemu"), stored("2", "pve1/qemu")],
      [okList("pve1/qemu", [makeVm(2)]), okList("pve2/qemu", [makeVm(1)])],
    );
    expect(plan.removals).toEqual([]);
    expect(plan.writes.map((w) => [w.vm.externalId, w.listKey])).toEqual([
      ["2", "pve1/qemu"],
      ["1", "pve2/qemu"],
    ]);
  });

  it("a list reported both ok and failed counts as failed", () => {
    const plan = planReconcile(
      [stored("1", "pve1/qemu")],
      [okList("pve1/qemu", []), { key: "pve1/qemu", status: "failed", reason: "x" }],
    );
    expect(plan.removals).toEqual([]);
    expect(plan.confirmations.map((c) => c.confirmation)).toEqual(["LIST_FAILED"]);
  });

  it("an unchanged, confirmed guest is not written; an unconfirmed one is reconfirmed", () => {
    const vm = makeVm(1);
    const first = planReconcile([], [okList("l", [vm])]);
    const fingerprint = first.seen[0]?.fingerprint ?? "";
    expect(planReconcile([stored("1", "l", { fingerprint })], [okList("l", [vm])]).writes).toEqual(
      [],
    );
    const offline = stored("1", "l", { fingerprint, confirmation: "NODE_OFFLINE" });
    expect(planReconcile([offline], [okList("l", [vm])]).writes.map((w) => w.change)).toEqual([
      "reconfirmed",
    ]);
  });
});

const LISTS = ["a", "b", "c", "d"];
const outcome = fc.constantFrom("ok", "failed", "node_offline", "missing");

describe("property: removal is safe", () => {
  it("never removes a present guest or one of a failed/offline list, and only when the guard allows", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            id: fc.integer({ min: 1, max: 60 }),
            list: fc.constantFrom(...LISTS),
            isRemoved: fc.boolean(),
          }),
          { selector: (r) => r.id, maxLength: 40 },
        ),
        fc.uniqueArray(
          fc.record({ id: fc.integer({ min: 1, max: 80 }), list: fc.constantFrom(...LISTS) }),
          {
            selector: (r) => r.id,
            maxLength: 40,
          },
        ),
        fc.tuple(outcome, outcome, outcome, outcome),
        (known, seen, outcomes) => {
          const statusOf = new Map(LISTS.map((key, i) => [key, outcomes[i]]));
          const lists: ListRead[] = LISTS.flatMap((key): ListRead[] => {
            const status = statusOf.get(key);
            if (status === "ok") {
              return [
                okList(
                  key,
                  seen.filter((s) => s.list === key).map((s) => makeVm(s.id)),
                ),
              ];
            }
            if (status === "failed" || status === "node_offline")
              return [{ key, status, reason: "r" }];
            return [];
          });
          const rows = known.map((k) => stored(String(k.id), k.list, { isRemoved: k.isRemoved }));
          const plan = planReconcile(rows, lists);
          const presentIds = new Set(plan.seen.map((s) => s.vm.externalId));
          for (const { stored: row } of plan.removals) {
            expect(presentIds.has(row.externalId)).toBe(false);
            expect(statusOf.get(row.listKey)).toBe("ok");
            expect(row.isRemoved).toBe(false);
          }
          const inOk = rows.filter((r) => !r.isRemoved && statusOf.get(r.listKey) === "ok");
          const present = inOk.filter((r) => presentIds.has(r.externalId)).length;
          if (plan.removals.length > 0) expect(present * 2).toBeGreaterThanOrEqual(inOk.length);
          const expected = present * 2 >= inOk.length ? inOk.length - present : 0;
          expect(plan.removals).toHaveLength(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
