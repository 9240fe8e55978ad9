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
  const waiters: Array<() => void> = [];

  const releaseOnce = (): (() => void) => {
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      const next = waiters.shift();
      // The permit passes straight to the next waiter (inUse unchanged) so no late arrival can
      // jump the queue.
      if (next) next();
      else inUse -= 1;
    };
  };

  return {
    limit: max,
    get inUse() {
      return inUse;
    },
    get waiting() {
      return waiters.length;
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
        const grant = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(releaseOnce());
        };
        const onAbort = () => {
          const at = waiters.indexOf(grant);
          if (at >= 0) waiters.splice(at, 1);
          reject(signal?.reason);
        };
        waiters.push(grant);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
  };
}
