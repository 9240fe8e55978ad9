// The Hyperlens server of one scenario, in its own process, so its peak RSS is that scenario's
// own: production's bundle (apps/api/dist/server.mjs, built by `npm run build`) or, with
// BENCH_RUNTIME=tsx, the TypeScript sources under tsx.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { LAUNCH_FLAGS } from "../apps/api/src/heap-growth.ts";

const root = path.resolve(import.meta.dirname, "..");

/** A running Hyperlens server. */
export interface HyperlensProcess {
  url: string;
  pid: number;
  /** Seconds from spawn to the first 200 from /readyz. */
  readySeconds: number;
  /** The process's peak resident set so far (VmHWM), in MB. */
  peakRssMb(): number;
  /** CPU time the process used so far (user + system), in seconds. */
  cpuSeconds(): number;
  /** The end of its log, per-call lines left out: for the message of a scenario that failed. */
  logTail(): string;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
  /** With BENCH_CPU_PROF, the V8 CPU profile the process wrote at its exit (after `stop`). */
  cpuProfileFile(): string | undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") return reject(new Error("no port"));
      server.close(() => resolve(address.port));
    });
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

/**
 * The end of the server's log, for an error message (the scratch directory is removed after);
 * the per-call lines of a sync are left out, so the lines that say what went wrong are kept.
 */
function logTail(logFile: string): string {
  try {
    const lines = readFileSync(logFile, "utf8").trimEnd().split("\n");
    return lines
      .filter((line) => !line.includes('"msg":"hypervisor call"'))
      .slice(-15)
      .join("\n");
  } catch {
    return "(no log)";
  }
}

async function waitReady(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = performance.now() + 120_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`Hyperlens exited with ${child.exitCode}:\n${logTail(logFile)}`);
    }
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`Hyperlens was not ready in 120 s:\n${logTail(logFile)}`);
}

/** Peak resident set of a process (Linux `VmHWM`), in MB; NaN where /proc is not available. */
export function peakRssMbOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? Number.NaN : Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU time of a process (Linux /proc, in the kernel's 100 Hz ticks), in seconds; NaN elsewhere. */
export function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts the server on the given environment (data directory, database, secret key) with the
 * production log level, the scheduler off (the benchmark starts every sync itself) and its log
 * in `logFile`.
 */
export async function startHyperlens(options: {
  env: Record<string, string>;
  runtime: "bundle" | "tsx";
  logFile: string;
}): Promise<HyperlensProcess> {
  const port = await freePort();
  const profileDir = process.env.BENCH_CPU_PROF
    ? path.resolve(process.env.BENCH_CPU_PROF)
    : undefined;
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  // Node flags to try against the figures, e.g. BENCH_NODE_FLAGS="--max-semi-space-size=32".
  const tried = process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? [];
  const entry =
    options.runtime === "bundle"
      ? ["--enable-source-maps", path.join(root, "apps/api/dist/server.mjs")]
      : ["--import", "tsx", path.join(root, "apps/api/src/main.ts")];
  const log = openSync(options.logFile, "a");
  const started = performance.now();
  const child = spawn(process.execPath, [...LAUNCH_FLAGS, ...tried, ...profile, ...entry], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      HYPERLENS_SCHEDULER: "0",
      // The sync benches read one connection twice in a row (the unchanged re-sync): no cool-down.
      HYPERLENS_MANUAL_SYNC_COOLDOWN_SECONDS: "0",
      ...options.env,
    },
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(`${url}/readyz`, child, options.logFile);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  const readySeconds = (performance.now() - started) / 1000;
  const pid = child.pid ?? -1;
  let isStopping = false;
  child.once("exit", (code, signal) => {
    if (isStopping) return;
    // Said at once: the scenario only sees its next request refused.
    console.error(
      `Hyperlens exited during the scenario (${signal ?? `code ${code}`}):\n${logTail(options.logFile)}`,
    );
  });
  return {
    url,
    pid,
    readySeconds,
    peakRssMb: () => peakRssMbOf(pid),
    cpuSeconds: () => cpuSecondsOf(pid),
    logTail: () => logTail(options.logFile),
    async stop() {
      isStopping = true;
      const exited = exitOf(child);
      child.kill("SIGTERM");
      await exited;
    },
    cpuProfileFile() {
      if (!profileDir) return undefined;
      // Node names it CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile.
      const name = readdirSync(profileDir).find((file) => file.includes(`.${pid}.0.`));
      return name ? path.join(profileDir, name) : undefined;
    },
  };
}
