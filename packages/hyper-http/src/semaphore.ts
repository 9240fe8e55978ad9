/** A counting semaphore: at most `limit` holders at once, the rest wait in arrival order. */
export interface Semaphore {
  /** Waits for a permit; rejects with the signal's reason if it aborts first. Returns the release function. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** Permits currently held (for tests and metrics). */
  readonly inUse: number;
  readonly limit: number;
}

/** Creates a {@link Semaphore} with `limit` permits (at least 1). */
export function createSemaphore(limit: number): Semaphore {
  const max = Math.max(1, Math.floor(limit));
  let inUse = 0;
  const waiters: Array<() => void> = [];

  const releaseOnce = (): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiters.shift();
      if (next) next();
      else inUse -= 1;
    };
  };

  return {
    get inUse() {
      return inUse;
    },
    limit: max,
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (inUse < max) {
        inUse += 1;
        return Promise.resolve(releaseOnce());
      }
      return new Promise((resolve, reject) => {
        // The permit is handed over directly (inUse unchanged) so no late arrival can jump the queue.
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

/** The process-wide cap shared by every client that does not bring its own (32 concurrent calls). */
export const globalSemaphore: Semaphore = createSemaphore(32);
