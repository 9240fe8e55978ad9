// `npm run bench`: every scenario, each with its Hyperlens server in its own process (and each
// stand-in in another), then one table (scenario | figure | value | target | PASS/MISS) and
// bench/results.json with every figure, the machine, Node, the database, the date and the commit.
// Takes about 15 minutes at full scale; figures taken while other work shares the CPU are noisy.
//
// Environment (defaults are issue 8's scale):
//   BENCH_ONLY=proxmox,vcd          scenarios to run: startup, proxmox, vcd, vcenter, list,
//                                   inventory-export, sso, webhooks, light-poll (all)
//   BENCH_RUNTIME=bundle|tsx        the server from apps/api/dist as production runs it, built
//                                   first with `npm run build` (bundle), or the sources (tsx)
//   BENCH_LATENCY_MS=20             stand-in latency per request
//   BENCH_PROXMOX_NODES=10  BENCH_PROXMOX_GUESTS=5000
//   BENCH_VCD_VMS=5000      BENCH_VCD_PAGE_CAP=25
//   BENCH_VCENTER_VMS=10000
//   BENCH_LIST_VMS=50000    BENCH_LIST_RUNS=200  (on PostgreSQL the list also reads its pages
//                                   with Prisma relationJoins beside rows-by-id, see list-read-strategies.ts)
//   BENCH_EXPORT_VMS=50000  BENCH_EXPORT_RUNS=5  (GET /inventory/ansible and /sd/prometheus)
//   BENCH_STARTUP_RUNS=3
//   BENCH_SSO_RUNS=40               OpenID Connect sign-ins against the in-process provider (sso)
//   BENCH_WEBHOOK_EVENTS=5000       change-feed events delivered to one local receiver (webhooks)
//   BENCH_LIGHT_POLL_GUESTS=1000    guests of the light-poll scenario's cluster (light-poll; it
//                                   waits out about a minute of 15 s polls whatever the size)
//   BENCH_CPU_PROF=dir              write a V8 CPU profile of each Hyperlens server into dir; the
//                                   sync scenarios print where the server's CPU went during the
//                                   full and the unchanged sync, by source and by function
//                                   (cpu-profile-summary.ts, also a command of its own)
//   BENCH_NODE_FLAGS="--flag …"     more Node flags for each Hyperlens server, to try them
//   DATABASE_URL=postgresql://…    a PostgreSQL server: each scenario in its own throw-away
//                                   database there (default: the embedded database)
// A quick try: BENCH_PROXMOX_GUESTS=500 BENCH_VCD_VMS=500 BENCH_VCENTER_VMS=1000 BENCH_LIST_VMS=5000 npm run bench
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { type Figure, formatTable, writeResults } from "./figures.ts";
import { benchInventoryExport } from "./inventory-export.ts";
import { benchInventoryList } from "./inventory-list.ts";
import { benchLightPoll } from "./light-poll.ts";
import { benchProxmoxSync } from "./proxmox-sync.ts";
import { type ScenarioName, settings } from "./settings.ts";
import { benchSsoSignIn } from "./sso-sign-in.ts";
import { benchStartup } from "./startup.ts";
import { benchVcdSync } from "./vcd-sync.ts";
import { benchVcenterSync } from "./vcenter-sync.ts";
import { benchWebhooks } from "./webhooks.ts";

const SCENARIO_RUNS: Record<ScenarioName, () => Promise<Figure[]>> = {
  startup: benchStartup,
  proxmox: benchProxmoxSync,
  vcd: benchVcdSync,
  vcenter: benchVcenterSync,
  list: benchInventoryList,
  "inventory-export": benchInventoryExport,
  sso: benchSsoSignIn,
  webhooks: benchWebhooks,
  "light-poll": benchLightPoll,
};

const root = path.resolve(import.meta.dirname, "..");
const startedAt = new Date();
const loadAtStart = os.loadavg()[0] ?? 0;

if (settings.runtime === "bundle") {
  // Turbo rebuilds only what changed, so the bundle is always the code being measured.
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // Each database is prepared here with the bundle's own copy of the migrations, so the server
  // finds exactly its migrations applied even while prisma/migrations is being edited.
  process.env.HYPERLENS_MIGRATIONS_DIR ??= path.join(root, "apps/api/dist/migrations");
}

const figures: Figure[] = [];
for (const [name, run] of Object.entries(SCENARIO_RUNS)) {
  if (!settings.only.has(name as ScenarioName)) continue;
  const started = performance.now();
  console.log(`${name}: running…`);
  try {
    const got = await run();
    figures.push(...got);
    console.log(formatTable(got));
  } catch (error) {
    console.error(error);
    figures.push({
      scenario: name,
      figure: "ran to the end",
      value: 0,
      unit: "",
      target: "1",
      isMet: false,
      note: error instanceof Error ? error.message : String(error),
    });
  }
  console.log(`${name}: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
}

const database = settings.databaseUrl ? "postgres" : "pglite";
const load = `load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]?.toFixed(1)} at the end on ${os.cpus().length} CPUs`;
console.log(
  `\nHyperlens benchmarks: ${settings.runtime}, ${database}, stand-in latency ${settings.latencyMs} ms; ${load}\n`,
);
console.log(formatTable(figures));
const file = path.join(import.meta.dirname, "results.json");
const { only, databaseUrl: _url, ...scale } = settings;
writeResults(file, figures, {
  database,
  runtime: settings.runtime,
  settings: { ...scale, only: [...only] },
  startedAt,
  loadAtStart,
});
console.log(`\nWritten: ${path.relative(root, file)}`);
