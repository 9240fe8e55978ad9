// How far V8 lets the old generation grow between full garbage collections. V8 puts the next
// collection at the live size times a factor it picks from its GC speed, up to 4. A sync keeps
// promoting short-lived objects (requests in flight, parsed answers), so during a 5,000-guest
// Proxmox read the heap grew from 40 to 162 MB before its first full collection, which left 81
// MB, and to 275 MB in the next sync. At V8's own smallest factor, 1.1, the heap stays near its
// live size; that took 36 full collections in two such syncs, 0.5 s of pauses in all, and a
// sync's CPU time stayed within a few seconds of what it was (docs/operations.md, sizing).
import { setFlagsFromString } from "node:v8";

/**
 * V8 flags the server and the CLI are launched with (the Dockerfile, `npm start`, the benchmark).
 * V8 sizes the young generation when the process starts, so, unlike the growth limit, no call at
 * run time can set it. Its default, two 16 MB semi-spaces, is committed by the end of start-up and
 * kept, which a sync's peak RSS pays for in full. Smaller is not free: a request's objects then
 * outlive young collections and are promoted: the unified list used about 32 ms of CPU per
 * request at 2 MB semi-spaces, 23–26 ms at 8 MB, 19–22 ms at 16 MB. At 8 MB every sync bench
 * scenario peaks at 270–284 MB (docs/operations.md, sizing); at 16 MB two would be near 300 MB.
 *
 * `--liftoff-only`: WebAssembly (PGlite's PostgreSQL, Prisma's query compiler) is compiled by
 * V8's baseline compiler only. Set at run time (pglite-module.ts) it no longer held in the server:
 * optimising the embedded PostgreSQL right after start-up took the idle server from 204 MB to a
 * peak of 780 MB before falling back to 280 MB — a peak higher than any sync's (issue 26).
 */
export const LAUNCH_FLAGS = ["--max-semi-space-size=8", "--liftoff-only"] as const;

/** The old generation's growth between full collections, in percent of the live size. */
export const HEAP_GROWING_PERCENT = 10;

/** Applies the growth limit to this process; the next full collection already follows it. */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
