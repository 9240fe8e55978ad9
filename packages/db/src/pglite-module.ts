// PGlite 0.3 starts its backend with settings compiled into the WASM binary (`-c
// shared_buffers=128MB -c wal_buffers=4MB …`). Command-line settings outrank postgresql.conf and
// ALTER SYSTEM, so nothing at run time can lower them, and the buffer pool alone is a third of the
// process's memory. The module is therefore compiled once per process from a copy of the binary
// whose compiled-in settings are rewritten in place (same length, NUL-padded C strings).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { setFlagsFromString } from "node:v8";

/** Compiled-in PGlite settings and what the embedded database runs with instead. */
export const PGLITE_SETTINGS = [
  // 2,048 pages; the OS caches the data files. A sync's VACUUM ANALYZE touches the whole pool,
  // which stays resident: at 32 MB a 5,000-guest Proxmox sync peaked 20 MB higher, no faster.
  { compiled: "shared_buffers=128MB", wanted: "shared_buffers=16MB" },
  { compiled: "wal_buffers=4MB", wanted: "wal_buffers=1MB" },
] as const;

/**
 * The binary with each compiled-in setting replaced. A setting not found exactly once (another
 * PGlite build) is left as it is: the database still opens, with PGlite's own values.
 */
export function rewriteSettings(binary: Uint8Array): Uint8Array {
  const bytes = Buffer.from(binary);
  for (const { compiled, wanted } of PGLITE_SETTINGS) {
    const from = Buffer.from(`${compiled}\0`);
    const at = bytes.indexOf(from);
    if (at < 0 || bytes.indexOf(from, at + 1) >= 0 || wanted.length > compiled.length) continue;
    const to = Buffer.alloc(from.length);
    to.write(wanted);
    to.copy(bytes, at);
  }
  return bytes;
}

// Node has WebAssembly at run time; the ES2023 library this repo compiles against only names its types.
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
};

let compiled: Promise<WebAssembly.Module> | undefined;

/** PGlite's WASM module with the embedded settings, compiled once and shared by every instance. */
export function pgliteModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    const binary = await readFile(path.join(path.dirname(entry), "pglite.wasm"));
    // V8's baseline compiler only: optimising PostgreSQL's hot functions as well kept a second
    // copy of their machine code, about 110 MB more resident memory for statements a third faster.
    // An inventory's statements are small; its memory is counted (docs/operations.md, sizing).
    // Set here for processes launched without it (tests); the server and the CLI are launched with
    // it (LAUNCH_FLAGS in apps/api/src/heap-growth.ts), as set here it did not hold in the server.
    setFlagsFromString("--liftoff-only");
    return wasm.compile(rewriteSettings(binary));
  })();
  return compiled;
}
