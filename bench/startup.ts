// Start-up time to a ready server: cold (a fresh data directory: initdb + migrations) and warm
// (the same directory again). Prints figures; asserts nothing.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, child: ChildProcess, deadlineMs: number): Promise<void> {
  while (performance.now() < deadlineMs) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("server did not become ready in 60 s");
}

/** Starts the server on `dataDir` and returns the seconds until /readyz answered 200. */
async function timeStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "apps/api/src/main.ts")],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        HYPERLENS_DATA_DIR: dataDir,
        DATABASE_URL: "",
      },
      stdio: "ignore",
    },
  );
  try {
    await waitReady(`http://127.0.0.1:${port}/readyz`, child, started + 60_000);
    return (performance.now() - started) / 1000;
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Runs the start-up benchmark and prints its figures. */
export async function benchStartup(runs = 3) {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hl-bench-"));
    cold.push(await timeStart(dataDir));
    warm.push(await timeStart(dataDir));
    rmSync(dataDir, { recursive: true, force: true });
  }
  const fmt = (values: number[]) =>
    `median ${median(values).toFixed(2)} s (runs: ${values.map((v) => v.toFixed(2)).join(", ")})`;
  console.log("start-up to /readyz OK, embedded database, process spawn included");
  console.log(`  cold (fresh data directory): ${fmt(cold)}   target < 10 s`);
  console.log(`  warm (existing data directory): ${fmt(warm)}   target < 3 s`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStartup();
