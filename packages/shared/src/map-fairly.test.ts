import { describe, expect, it } from "vitest";
import { mapFairly } from "./map-fairly.ts";

/** A call per item that waits until the test lets it end, recording what ran together. */
function gatedCalls() {
  const started: string[] = [];
  const open = new Map<string, () => void>();
  let inFlight = 0;
  let most = 0;
  const byGroup = new Map<string, number>();
  const mostByGroup = new Map<string, number>();
  const fn = (item: string) =>
    new Promise<string>((resolve) => {
      const group = item.split("/")[0] as string;
      started.push(item);
      inFlight += 1;
      most = Math.max(most, inFlight);
      byGroup.set(group, (byGroup.get(group) ?? 0) + 1);
      mostByGroup.set(group, Math.max(mostByGroup.get(group) ?? 0, byGroup.get(group) ?? 0));
      open.set(item, () => {
        inFlight -= 1;
        byGroup.set(group, (byGroup.get(group) ?? 0) - 1);
        resolve(item.toUpperCase());
      });
    });
  /** Ends the oldest call still open, then lets the pool start what it will. */
  const endOldest = async () => {
    const [item, end] = open.entries().next().value as [string, () => void];
    open.delete(item);
    end();
    await new Promise((r) => setImmediate(r));
  };
  return {
    fn,
    started,
    endOldest,
    get open() {
      return open.size;
    },
    get most() {
      return most;
    },
    mostByGroup,
  };
}

const groupOf = (item: string) => item.split("/")[0] as string;

describe("mapFairly", () => {
  it("gives free slots to the groups in turn, so a big group does not keep the small ones waiting", async () => {
    const items = [...Array.from({ length: 12 }, (_, i) => `big/${i}`), "a/0", "a/1", "b/0", "b/1"];
    const calls = gatedCalls();
    const mapped = mapFairly(items, { groupOf, perGroup: 2, limit: 3 }, calls.fn);
    while (calls.open > 0) await calls.endOldest();
    expect(await mapped).toEqual(items.map((item) => item.toUpperCase()));
    // docs/behaviour.md §3.8: the small groups are done within the first rounds, not after big.
    expect(calls.started.slice(0, 8)).toEqual([
      "big/0",
      "a/0",
      "b/0",
      "big/1",
      "a/1",
      "b/1",
      "big/2",
      "big/3",
    ]);
    expect(calls.most).toBe(3);
    expect(Math.max(...calls.mostByGroup.values())).toBe(2);
  });

  it("never runs more than perGroup for one group, even with slots to spare", async () => {
    const items = Array.from({ length: 10 }, (_, i) => `only/${i}`);
    const calls = gatedCalls();
    const mapped = mapFairly(items, { groupOf, perGroup: 2, limit: 16 }, calls.fn);
    await new Promise((r) => setImmediate(r));
    expect(calls.open).toBe(2);
    while (calls.open > 0) await calls.endOldest();
    await mapped;
    expect(calls.mostByGroup.get("only")).toBe(2);
  });

  it("keeps min(perGroup × groups, limit) in flight", async () => {
    const items = ["a", "b", "c", "d", "e"].flatMap((g) => [0, 1, 2, 3].map((i) => `${g}/${i}`));
    const calls = gatedCalls();
    const mapped = mapFairly(items, { groupOf, perGroup: 2, limit: 7 }, calls.fn);
    await new Promise((r) => setImmediate(r));
    expect(calls.open).toBe(7);
    while (calls.open > 0) await calls.endOldest();
    await mapped;
  });

  it("rejects with the first failure and starts nothing after it", async () => {
    const started: string[] = [];
    const mapped = mapFairly(
      ["a/0", "a/1", "b/0"],
      { groupOf, perGroup: 1, limit: 1 },
      async (item) => {
        started.push(item);
        if (item === "a/0") throw new Error("a/0 failed");
        return item;
      },
    );
    await expect(mapped).rejects.toThrow("a/0 failed");
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual(["a/0"]);
  });

  it("answers an empty list with an empty list and refuses a limit below one", async () => {
    expect(await mapFairly([], { groupOf, perGroup: 2, limit: 4 }, async (x) => x)).toEqual([]);
    expect(() => mapFairly(["a/0"], { groupOf, perGroup: 0, limit: 4 }, async (x) => x)).toThrow(
      RangeError,
    );
  });
});
