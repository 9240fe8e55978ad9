import { describe, expect, it } from "vitest";
import { mapWithLimit } from "./map-with-limit.ts";

describe("mapWithLimit", () => {
  it("keeps the order and never runs more than the limit at once", async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapWithLimit([5, 1, 4, 2, 3], 2, async (n) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, n));
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });

  it("starts the items in input order, rejects with the first failure and starts nothing after it", async () => {
    const started: number[] = [];
    const mapped = mapWithLimit([1, 2, 3, 4], 1, async (n) => {
      started.push(n);
      if (n === 2) throw new Error("item 2 failed");
      return n;
    });
    await expect(mapped).rejects.toThrow("item 2 failed");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual([1, 2]);
  });
});
