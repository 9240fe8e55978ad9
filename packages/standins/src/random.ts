/**
 * A small seeded PRNG (mulberry32) so generated inventories are identical on every run and
 * machine: a failing scale test can be replayed from its seed.
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError("pick from an empty list");
    return item;
  }

  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string {
    let out = "";
    for (let i = 0; i < bytes; i += 1) out += this.int(0, 255).toString(16).padStart(2, "0");
    return out;
  }
}
