/**
 * A counting semaphore: at most `limit` holders at once, the rest wait in arrival order. The one
 * concurrency limiter of the repo — hyper-http's per-connection and process-wide caps, the
 * connectors' per-VM pools ({@link mapWithLimit}) and the stand-ins' worker queue all use it.
 */
export interface Semaphore {
  /**
   * Waits for a permit and returns its release function (calling it twice frees one permit).
   * Rejects with the signal's reason, leaving the queue, if the signal aborts first.
   */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** Permits it hands out at once (`Infinity` never queues). */
  readonly limit: number;
  /** Permits held right now. */
  readonly inUse: number;
  /** Callers waiting for a permit right now. */
  readonly waiting: number;
  /** Most permits held at once since creation or the last {@link Semaphore.resetPeak}. */
  readonly peakInUse: number;
  /** Forgets the peak (the current count becomes the new peak). */
  resetPeak(): void;
}

/** Creates a {@link Semaphore} with `limit` permits (a whole number of at least 1, or `Infinity`). */
export function createSemaphore(limit: number): Semaphore {
  // A limit below one would make every caller wait forever; refuse it where it is made.
  if (!(limit >= 1)) throw new RangeError(`semaphore limit must be at least 1, got ${limit}`);
  const max = Math.floor(limit);
  let inUse = 0;
  let peakInUse = 0;
  // A queue read from `head` rather than shifted: Array#shift copies a long array on every call,
  // which made 50,000 queued items take 1.2 s instead of 0.05 s. A waiter that gives up is only
  // marked; it is skipped when its turn comes.
  const queue: Array<Waiter | undefined> = [];
  let head = 0;
  let waiting = 0;

  const takeNextWaiter = (): Waiter | undefined => {
    let next: Waiter | undefined;
    while (next === undefined && head < queue.length) {
      const candidate = queue[head];
      queue[head] = undefined;
      head += 1;
      if (candidate && !candidate.hasGivenUp) next = candidate;
    }
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    } else if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    return next;
  };

  const releaseOnce = (): (() => void) => {
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      const next = takeNextWaiter();
      // The permit passes straight to the next waiter (inUse unchanged) so no late arrival can
      // jump the queue.
      if (next) {
        waiting -= 1;
        next.grant();
      } else inUse -= 1;
    };
  };

  return {
    limit: max,
    get inUse() {
      return inUse;
    },
    get waiting() {
      return waiting;
    },
    get peakInUse() {
      return peakInUse;
    },
    resetPeak() {
      peakInUse = inUse;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (inUse < max) {
        inUse += 1;
        peakInUse = Math.max(peakInUse, inUse);
        return Promise.resolve(releaseOnce());
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          hasGivenUp: false,
          grant() {
            signal?.removeEventListener("abort", onAbort);
            resolve(releaseOnce());
          },
        };
        const onAbort = () => {
          waiter.hasGivenUp = true;
          waiting -= 1;
          reject(signal?.reason);
        };
        queue.push(waiter);
        waiting += 1;
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
  };
}

/** One caller in the queue; `hasGivenUp` once its signal aborted. */
interface Waiter {
  hasGivenUp: boolean;
  grant(): void;
}
