import { describe, expect, it } from "vitest";
import { WorkerPool } from "./worker-pool.ts";

describe("WorkerPool", () => {
  it("lets `limit` holders in and queues the rest in arrival order", async () => {
    const pool = new WorkerPool(2);
    const first = await pool.acquire();
    const second = await pool.acquire();
    const order: number[] = [];
    const third = pool.acquire().then((release) => {
      order.push(3);
      return release;
    });
    const fourth = pool.acquire().then((release) => {
      order.push(4);
      return release;
    });
    await Promise.resolve();
    expect([pool.active, pool.waiting]).toEqual([2, 2]);
    first();
    first(); // a second release of the same slot is ignored
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual([3, 4]);
    expect([pool.active, pool.waiting, pool.maxActive]).toEqual([0, 0, 2]);
  });

  it("refuses a limit below one", () => {
    expect(() => new WorkerPool(0)).toThrow(RangeError);
  });
});
