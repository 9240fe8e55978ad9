// PGlite has no server to arbitrate: two processes on one data directory corrupt it. A pid file
// makes the second process stop with a clear message instead.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid of another live process holding the data directory, or undefined when none does. */
export function dataDirHolder(dataDir: string): number | undefined {
  let holder: number;
  try {
    holder = Number(readFileSync(path.join(dataDir, "hyperlens.pid"), "utf8").trim());
  } catch {
    return undefined;
  }
  return holder !== process.pid && Number.isInteger(holder) && isAlive(holder) ? holder : undefined;
}

/** Takes the data directory for this process; returns the release function. */
export function acquireDataDirLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "hyperlens.pid");
  try {
    writeFileSync(file, String(process.pid), { flag: "wx" });
  } catch {
    const holder = dataDirHolder(dataDir);
    if (holder !== undefined) {
      throw new Error(
        `Another Hyperlens process (pid ${holder}) is using the data directory ${dataDir}. ` +
          "Stop it, or use another HYPERLENS_DATA_DIR.",
      );
    }
    // A stale file from a process that died: take it over.
    writeFileSync(file, String(process.pid));
  }
  return () => rmSync(file, { force: true });
}
