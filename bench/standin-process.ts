// Runs a stand-in in its own process, so a benchmark measures Hyperlens, not the stand-in sharing
// its CPU. Prints {url, caPem} as one JSON line; answers "stats" and "stop" over IPC.
import {
  createProxmoxStandin,
  createVcdStandin,
  createVcenterStandin,
  generateCluster,
  generateDirector,
  generateVcenter,
  qemuGuest,
} from "@hyperlens/standins/testing";
import type { StandinOptions, StandinStats } from "./standin.ts";

const options = JSON.parse(process.argv[2] ?? "{}") as StandinOptions;

async function start() {
  switch (options.kind) {
    case "vcd":
      return createVcdStandin({
        model: generateDirector({
          orgs: 5,
          vdcsPerOrg: 2,
          vms: options.guests,
          edgeGateways: 20,
          seed: 42,
        }),
        latencyMs: options.latencyMs,
        maxPageSize: options.maxPageSize ?? 25,
      });
    case "vcenter":
      // One datacenter of 2 clusters × 3 hosts, and vCenter's own cap of 4,000 VMs per list call.
      return createVcenterStandin({
        model: generateVcenter({ vms: options.guests, seed: 42 }),
        latencyMs: options.latencyMs,
      });
    default:
      // Each node serves with pveproxy's 3 workers (the stand-in's default).
      return createProxmoxStandin({
        cluster: generateCluster({ nodes: options.nodes ?? 10, guests: options.guests, seed: 42 }),
        latencyMs: options.latencyMs,
        version: "9.1",
      });
  }
}

const standin = await start();
let logged = 0;
let cpuAtLastStats = process.cpuUsage();

/** Requests asked more than once since the last stats, query string included. */
function repeatedRequests(): Record<string, number> {
  const counts = new Map<string, number>();
  for (const r of standin.requests.slice(logged)) {
    const key = `${r.method} ${r.path}${r.query ? `?${r.query}` : ""}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  logged = standin.requests.length;
  return Object.fromEntries([...counts].filter(([, n]) => n > 1));
}

function cpuSinceLastStats(): number {
  const used = process.cpuUsage(cpuAtLastStats);
  cpuAtLastStats = process.cpuUsage();
  return (used.user + used.system) / 1e6;
}

process.stdout.write(`${JSON.stringify({ url: standin.url, caPem: standin.caPem })}\n`);
process.on("message", (message) => {
  if (message === "stats") {
    const stats: StandinStats = {
      total: standin.stats.total,
      byPath: standin.stats.byPath,
      byMethod: standin.stats.byMethod,
      maxInFlight: standin.stats.maxInFlight,
      ...("nodeWorkers" in standin
        ? { maxInFlightByNode: standin.nodeWorkers.maxInFlightByNode() }
        : {}),
      repeated: repeatedRequests(),
      cpuSeconds: cpuSinceLastStats(),
    };
    process.send?.(stats);
    standin.stats.reset();
    if ("nodeWorkers" in standin) standin.nodeWorkers.resetPeaks();
  }
  // A guest created on the hypervisor (light-poll.ts): answered "added" once it is there.
  if (message === "add-guest" && "cluster" in standin) {
    const node = standin.cluster.nodes[0]?.name ?? "pve1";
    standin.cluster.addGuest(qemuGuest({ vmid: 999_999, name: "bench-light-poll-new", node }));
    process.send?.("added");
  }
  if (message === "stop") void standin.close().then(() => process.exit(0));
});
