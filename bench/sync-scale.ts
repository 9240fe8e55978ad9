// Sync at scale: Proxmox 50 nodes and vCenter, each at BENCH_SCALE_GUESTS guests (5,000, 20,000
// and 50,000 by default) at BENCH_SCALE_LATENCY_MS (2 ms), one full sync per size, each with a
// fresh stand-in, database and server so a row's peak RSS is that size's own. Targets (issue 26):
// peak RSS under 400 MB on the embedded database and under 300 MB on PostgreSQL, and time linear
// in guests, the time per guest at the largest size at most 1.2× that at the smallest.

import { withBenchServer } from "./bench-server.ts";
import type { Figure } from "./figures.ts";
import { proxmoxScenario } from "./proxmox-sync.ts";
import { settings } from "./settings.ts";
import { type SyncScenario, saveConnection, syncAndWait } from "./source-sync.ts";
import { startStandin } from "./standin.ts";
import { vcenterScenario } from "./vcenter-sync.ts";

/** Proxmox nodes at every size: issue 26's 50 nodes × 1,000 guests at 50,000. */
const PROXMOX_NODES = 50;
const VCENTER_CLUSTERS = 5;
const VCENTER_HOSTS_PER_CLUSTER = 10;
const RSS_TARGET_MB = settings.databaseUrl ? 300 : 400;
const LINEAR_TARGET = 1.2;

interface ScaleRun {
  guests: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  readyRssMb: number;
}

async function runAtScale(scenario: SyncScenario, guests: number): Promise<ScaleRun> {
  const standin = await startStandin(scenario.standin);
  try {
    return await withBenchServer({}, async ({ server, call }) => {
      const readyRssMb = server.peakRssMb();
      const id = await saveConnection(call, scenario, {
        ...scenario.connection(standin.url, standin.caPem),
        name: "bench-scale",
        maxConcurrentRequests: settings.scaleConcurrency,
      });
      const cpuBefore = server.cpuSeconds();
      const { run, seconds } = await syncAndWait(call, id);
      if (run.counts.seen !== guests) {
        throw new Error(`the sync saw ${run.counts.seen} guests, not ${guests}`);
      }
      return {
        guests,
        seconds,
        cpuSeconds: server.cpuSeconds() - cpuBefore,
        peakRssMb: server.peakRssMb(),
        readyRssMb,
      };
    });
  } finally {
    standin.stop();
  }
}

function scaleFigures(source: string, runs: ScaleRun[]): Figure[] {
  const figures: Figure[] = runs.flatMap((r) => {
    const scenario = `${source} ${r.guests.toLocaleString("en-US")} guests`;
    const perGuestMs = (r.seconds * 1000) / r.guests;
    return [
      {
        scenario,
        figure: "full sync",
        value: r.seconds,
        unit: "s",
        note: `${perGuestMs.toFixed(2)} ms per guest; CPU: server ${r.cpuSeconds.toFixed(0)} s`,
      },
      {
        scenario,
        figure: "peak RSS",
        value: r.peakRssMb,
        unit: "MB",
        target: `< ${RSS_TARGET_MB} MB`,
        isMet: r.peakRssMb < RSS_TARGET_MB,
        note: `ready ${r.readyRssMb.toFixed(0)} MB (${settings.runtime}, ${settings.databaseUrl ? "postgres" : "pglite"})`,
      },
    ];
  });
  const smallest = runs[0];
  const largest = runs.at(-1);
  if (smallest && largest && largest !== smallest) {
    const perGuest = (r: ScaleRun) => r.seconds / r.guests;
    const ratio = perGuest(largest) / perGuest(smallest);
    figures.push({
      scenario: source,
      figure: `time per guest, ${largest.guests.toLocaleString("en-US")} ÷ ${smallest.guests.toLocaleString("en-US")}`,
      value: ratio,
      unit: "×",
      target: `≤ ${LINEAR_TARGET}×`,
      isMet: ratio <= LINEAR_TARGET,
    });
  }
  return figures;
}

/** Runs every size for Proxmox and vCenter and returns their figures. */
export async function benchSyncScale(): Promise<Figure[]> {
  const sizes = [...settings.scaleGuests].sort((a, b) => a - b);
  const latency = settings.scaleLatencyMs;
  const sources: [string, (guests: number) => SyncScenario][] = [
    [`Proxmox ${PROXMOX_NODES} nodes`, (g) => proxmoxScenario(PROXMOX_NODES, g, latency)],
    // A host's VMs in one folder must stay under vCenter's 4,000 per list call: 50 hosts, as
    // Proxmox has 50 nodes.
    [
      `vCenter ${VCENTER_CLUSTERS * VCENTER_HOSTS_PER_CLUSTER} hosts`,
      (g) =>
        vcenterScenario(g, latency, {
          clusters: VCENTER_CLUSTERS,
          hostsPerCluster: VCENTER_HOSTS_PER_CLUSTER,
        }),
    ],
  ];
  const figures: Figure[] = [];
  for (const [source, scenarioOf] of sources) {
    const runs: ScaleRun[] = [];
    for (const guests of sizes) {
      try {
        runs.push(await runAtScale(scenarioOf(guests), guests));
        console.log(`  ${source}, ${guests} guests: done`);
      } catch (error) {
        // One size failing leaves the other sizes' rows (and the other source) standing.
        figures.push({
          scenario: `${source} ${guests.toLocaleString("en-US")} guests`,
          figure: "ran to the end",
          value: 0,
          unit: "",
          target: "1",
          isMet: false,
          note: (error as Error).message.split("\n")[0] ?? "",
        });
      }
    }
    figures.push(...scaleFigures(source, runs));
  }
  return figures;
}
