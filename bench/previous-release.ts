// The previous release beside this one in one run: the release's commit (BENCH_PREVIOUS_COMMIT,
// f4c83e5) is checked out in a git worktree at bench/.previous (git-ignored; `npm ci` there once,
// reused after), both servers start (same runtime, each on a database prepared by its own code)
// and read the same Proxmox stand-in (10 nodes, BENCH_PREVIOUS_GUESTS guests, 5 ms per request):
// a full sync and an unchanged re-sync each, taken in turns so load drifting on this shared
// machine touches both alike. The figures are the ratios previous ÷ this; absolute times vary.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { startBenchServer } from "./bench-server.ts";
import type { Figure } from "./figures.ts";
import type { GraphqlCall } from "./graphql-client.ts";
import type { HyperlensProcess } from "./hyperlens-process.ts";
import { proxmoxScenario } from "./proxmox-sync.ts";
import { settings } from "./settings.ts";
import { type SyncScenario, saveConnection, syncAndWait } from "./source-sync.ts";
import { type StandinProcess, startStandin } from "./standin.ts";

const root = path.resolve(import.meta.dirname, "..");
const previousDir = path.join(import.meta.dirname, ".previous");
const LATENCY_MS = 5;
const NODES = 10;

function run(command: string, args: string[], cwd: string): void {
  const done = spawnSync(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
  if (done.status !== 0) throw new Error(`${command} ${args.join(" ")} failed in ${cwd}`);
}

/** The previous release's worktree with its packages installed (and built for the bundle). */
function previousCheckout(commit: string): string {
  const wanted = execFileSync("git", ["rev-parse", `${commit}^{commit}`], { cwd: root })
    .toString()
    .trim();
  if (existsSync(previousDir)) {
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: previousDir }).toString().trim();
    if (head !== wanted) run("git", ["checkout", "--detach", wanted], previousDir);
  } else {
    run("git", ["worktree", "add", "--detach", previousDir, wanted], root);
  }
  if (!existsSync(path.join(previousDir, "node_modules"))) run("npm", ["ci"], previousDir);
  if (settings.runtime === "bundle") run("npm", ["run", "build"], previousDir);
  return previousDir;
}

interface Side {
  label: string;
  server: HyperlensProcess;
  call: GraphqlCall;
  connectionId: string;
  close(): Promise<void>;
}

/** The previous release's database, prepared by its own code in its own process. */
function preparePreviousDatabase(checkout: string) {
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "previous-database.ts")],
    { cwd: checkout, env: { ...previousEnv(), HYPERLENS_MIGRATIONS_DIR: migrationsOf(checkout) } },
  );
  const lines = out.toString().trim().split("\n");
  return JSON.parse(lines.at(-1) ?? "{}") as {
    dir: string;
    env: Record<string, string>;
    token: string;
  };
}

/** This run's environment without its BENCH_ settings, which the previous release's bench may refuse. */
function previousEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("BENCH_")),
  );
}

function migrationsOf(checkout: string): string {
  return settings.runtime === "bundle"
    ? path.join(checkout, "apps/api/dist/migrations")
    : path.join(checkout, "prisma/migrations");
}

async function startSide(
  label: string,
  checkout: string | undefined,
  scenario: SyncScenario,
  standin: StandinProcess,
): Promise<Side> {
  const previous = checkout
    ? {
        ...preparePreviousDatabase(checkout),
        kind: settings.databaseUrl ? ("postgres" as const) : ("pglite" as const),
        close: async () => {},
      }
    : undefined;
  const { db, server, call, stop } = await startBenchServer({
    ...(previous ? { db: previous } : {}),
    ...(checkout ? { env: { HYPERLENS_MIGRATIONS_DIR: migrationsOf(checkout) }, checkout } : {}),
  });
  const connectionId = await saveConnection(call, scenario, {
    ...scenario.connection(standin.url, standin.caPem),
    name: `bench-${label}`,
    maxConcurrentRequests: 4,
  });
  return {
    label,
    server,
    call,
    connectionId,
    async close() {
      await stop();
      rmSync(db.dir, { recursive: true, force: true });
    },
  };
}

interface Timed {
  seconds: number;
  cpuSeconds: number;
  rowsWritten: number;
}

async function timedSync(side: Side): Promise<Timed> {
  const cpuBefore = side.server.cpuSeconds();
  const { run: done, seconds } = await syncAndWait(side.call, side.connectionId);
  return {
    seconds,
    cpuSeconds: side.server.cpuSeconds() - cpuBefore,
    rowsWritten: done.counts.rowsWritten,
  };
}

/** Runs both releases against one stand-in and returns the side-by-side figures. */
export async function benchPreviousRelease(): Promise<Figure[]> {
  const commit = settings.previousCommit;
  const checkout = previousCheckout(commit);
  const scenario = proxmoxScenario(NODES, settings.previousGuests, LATENCY_MS);
  const standin = await startStandin(scenario.standin);
  const sides: Side[] = [];
  try {
    sides.push(await startSide("previous", checkout, scenario, standin));
    sides.push(await startSide("this", undefined, scenario, standin));
    const [previous, current] = sides as [Side, Side];
    // In turns: full, full, then unchanged, unchanged.
    const previousFull = await timedSync(previous);
    const currentFull = await timedSync(current);
    const previousAgain = await timedSync(previous);
    const currentAgain = await timedSync(current);
    const name = `${scenario.name}, ${LATENCY_MS} ms: ${commit} beside this`;
    return [
      sideBySide(name, "full sync", previousFull, currentFull),
      sideBySide(name, "unchanged re-sync", previousAgain, currentAgain),
    ];
  } finally {
    for (const side of sides) await side.close();
    standin.stop();
  }
}

const described = (t: Timed) =>
  `${t.seconds.toFixed(1)} s, CPU ${t.cpuSeconds.toFixed(1)} s, ${t.rowsWritten} rows`;

/** One row: previous ÷ this (above 1: this release is faster), both sides in the note. */
function sideBySide(scenario: string, what: string, previous: Timed, current: Timed): Figure {
  const ratio = previous.seconds / current.seconds;
  const cpuRatio = previous.cpuSeconds / current.cpuSeconds;
  return {
    scenario,
    figure: `${what}, previous ÷ this`,
    value: ratio,
    unit: "×",
    target: "≥ 1×",
    isMet: ratio >= 1,
    note: `previous ${described(previous)}; this ${described(current)}; CPU previous ÷ this ${cpuRatio.toFixed(2)}×`,
  };
}
