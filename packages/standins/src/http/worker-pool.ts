/**
 * A counting semaphore standing in for a server's fixed worker processes: requests beyond
 * `limit` wait in arrival order, so a benchmark sees the queueing a real pveproxy imposes.
 */
export class WorkerPool {
  #active = 0;
  #maxActive = 0;
  readonly #waiting: Array<() => void> = [];

  /** @param limit concurrent holders; `Infinity` never queues. */
  constructor(readonly limit: number = Number.POSITIVE_INFINITY) {
    if (!(limit >= 1)) throw new RangeError(`worker limit must be at least 1, got ${limit}`);
  }

  /** Holders right now. */
  get active(): number {
    return this.#active;
  }

  /** Most holders seen at once since creation or {@link resetPeak}. */
  get maxActive(): number {
    return this.#maxActive;
  }

  /** Requests waiting for a worker right now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Forget the peak (keeps the current count as the new peak). */
  resetPeak(): void {
    this.#maxActive = this.#active;
  }

  /** Wait for a free worker; call the returned function exactly once to free it. */
  async acquire(): Promise<() => void> {
    if (this.#active >= this.limit) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#active += 1;
    }
    this.#maxActive = Math.max(this.#maxActive, this.#active);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so #active stays the same.
      if (next) next();
      else this.#active -= 1;
    };
  }
}
