import { describe, expect, it } from "vitest";
import { createSemaphore } from "./semaphore.ts";

describe("semaphore", () => {
  it("lets `limit` holders in and queues the rest in arrival order", async () => {
    const pool = createSemaphore(2);
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
    expect([pool.inUse, pool.waiting]).toEqual([2, 2]);
    first();
    first(); // a second release of the same slot is ignored
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual([3, 4]);
    expect([pool.inUse, pool.waiting, pool.peakInUse]).toEqual([0, 0, 2]);
  });

  it("hands permits over in order and lets a waiter give up", async () => {
    const semaphore = createSemaphore(1);
    const release = await semaphore.acquire();
    const controller = new AbortController();
    const gaveUp = semaphore.acquire(controller.signal);
    const next = semaphore.acquire();
    controller.abort(new Error("deadline"));
    await expect(gaveUp).rejects.toThrow("deadline");
    expect(semaphore.waiting).toBe(1);
    release();
    const releaseNext = await next;
    expect(semaphore.inUse).toBe(1);
    releaseNext();
    releaseNext();
    expect(semaphore.inUse).toBe(0);
  });

  it("refuses an already aborted caller without taking a permit", async () => {
    const semaphore = createSemaphore(1);
    await expect(semaphore.acquire(AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
    expect([semaphore.inUse, semaphore.waiting]).toEqual([0, 0]);
  });

  it("a freed permit goes to the first waiter, not to a caller arriving after the release", async () => {
    const semaphore = createSemaphore(1);
    const release = await semaphore.acquire();
    const got: string[] = [];
    const waiter = semaphore.acquire().then((r) => {
      got.push("waiter");
      return r;
    });
    release();
    const late = semaphore.acquire().then((r) => {
      got.push("late");
      return r;
    });
    (await waiter)();
    (await late)();
    expect(got).toEqual(["waiter", "late"]);
    expect(semaphore.inUse).toBe(0);
  });

  it("with an infinite limit never queues, and remembers its peak until reset", async () => {
    const pool = createSemaphore(Number.POSITIVE_INFINITY);
    const releases = await Promise.all(Array.from({ length: 5 }, () => pool.acquire()));
    expect([pool.inUse, pool.waiting, pool.peakInUse]).toEqual([5, 0, 5]);
    for (const release of releases.slice(2)) release();
    pool.resetPeak();
    expect(pool.peakInUse).toBe(2);
  });

  it("hands over along a queue of 200,000 waiters, each once, and ends empty", async () => {
    const semaphore = createSemaphore(1);
    const first = await semaphore.acquire();
    const everyone = Array.from({ length: 200_000 }, () =>
      semaphore.acquire().then((release) => release()),
    );
    first();
    await Promise.all(everyone);
    expect([semaphore.inUse, semaphore.waiting]).toEqual([0, 0]);
  });

  it("skips a waiter that gave up, wherever it stood in the queue", async () => {
    const semaphore = createSemaphore(1);
    const release = await semaphore.acquire();
    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const granted: number[] = [];
    const waits = controllers.map((controller, index) =>
      semaphore.acquire(controller.signal).then(
        (releaseOwn) => {
          granted.push(index);
          releaseOwn();
        },
        () => undefined,
      ),
    );
    controllers[0]?.abort(new Error("first gave up"));
    controllers[2]?.abort(new Error("last gave up"));
    await Promise.resolve();
    expect(semaphore.waiting).toBe(1);
    release();
    await Promise.all(waits);
    expect(granted).toEqual([1]);
    expect([semaphore.inUse, semaphore.waiting]).toEqual([0, 0]);
  });

  it("refuses a limit below one", () => {
    expect(() => createSemaphore(0)).toThrow(RangeError);
    expect(() => createSemaphore(Number.NaN)).toThrow(RangeError);
  });
});
