// A PGlite data directory comes into existence complete or not at all. PGlite runs initdb straight
// into the directory it is given; a process killed during that (first start, ~2 s) leaves a
// half-written directory — PG_VERSION already there — that every later open aborts on
// ("RuntimeError: Aborted()"), so the install never starts again without manual deletion.
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import type { PGliteOptions } from "@electric-sql/pglite";

const isMissingOrEmpty = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

/**
 * Makes sure `dir` holds an initialised PGlite data directory: a new one is initialised in a
 * sibling staging directory and renamed into place once PGlite has closed it. The caller must
 * hold the data-directory lock (a staging directory found is then a dead process's leftover).
 */
export async function ensurePgliteDataDir(dir: string, options: PGliteOptions = {}): Promise<void> {
  if (!isMissingOrEmpty(dir)) return;
  const staging = `${dir}.initializing`;
  rmSync(staging, { recursive: true, force: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const client = new PGlite(staging, options);
  await client.waitReady;
  await client.close();
  rmSync(dir, { recursive: true, force: true });
  // TRAP: issue 8 — only a complete directory is ever put in place: initdb cut short by a kill
  // must leave nothing PGlite would later try (and fail, for good) to open.
  renameSync(staging, dir);
}
