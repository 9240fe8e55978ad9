// Start-up time to a ready server: cold (a fresh data directory: initdb + migrations) and warm
// (the same directory again), embedded database, process spawn included.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Figure } from "./figures.ts";
import { startHyperlens } from "./hyperlens-process.ts";
import { settings } from "./settings.ts";

/** Starts the server on `dir`'s data directory and returns the seconds until /readyz answered 200. */
async function timeStart(dir: string): Promise<number> {
  const server = await startHyperlens({
    env: { HYPERLENS_DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" },
    runtime: settings.runtime,
    logFile: path.join(dir, "hyperlens.log"),
  });
  await server.stop();
  return server.readySeconds;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Runs the start-up scenario and returns its figures. */
export async function benchStartup(): Promise<Figure[]> {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < Math.max(1, settings.startupRuns); i++) {
    const dir = mkdtempSync(path.join(tmpdir(), "hl-bench-start-"));
    try {
      cold.push(await timeStart(dir));
      warm.push(await timeStart(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const runs = (values: number[]) =>
    `median of ${values.map((v) => v.toFixed(2)).join(", ")} s (${settings.runtime}, embedded database)`;
  const name = "Start-up to /readyz";
  return [
    {
      scenario: name,
      figure: "cold (fresh data directory)",
      value: median(cold),
      unit: "s",
      target: "< 10 s",
      isMet: median(cold) < 10,
      note: runs(cold),
    },
    {
      scenario: name,
      figure: "warm (existing data directory)",
      value: median(warm),
      unit: "s",
      target: "< 3 s",
      isMet: median(warm) < 3,
      note: runs(warm),
    },
  ];
}
