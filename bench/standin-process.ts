// Runs a stand-in in its own process, so a benchmark measures Hyperlens, not the stand-in sharing
// its CPU. Prints {url, caPem} as one JSON line; answers "stats" and "stop" over IPC.
import {
  createProxmoxStandin,
  createVcdStandin,
  generateCluster,
  generateDirector,
} from "@hyperlens/standins";

const options = JSON.parse(process.argv[2] ?? "{}") as {
  kind: "proxmox" | "vcd";
  nodes?: number;
  guests: number;
  latencyMs: number;
  maxPageSize?: number;
};

const standin =
  options.kind === "vcd"
    ? await createVcdStandin({
        model: generateDirector({
          orgs: 5,
          vdcsPerOrg: 2,
          vms: options.guests,
          edgeGateways: 20,
          seed: 42,
        }),
        latencyMs: options.latencyMs,
        maxPageSize: options.maxPageSize ?? 25,
      })
    : await createProxmoxStandin({
        cluster: generateCluster({ nodes: options.nodes ?? 10, guests: options.guests, seed: 42 }),
        latencyMs: options.latencyMs,
        version: "9.1",
      });
process.stdout.write(`${JSON.stringify({ url: standin.url, caPem: standin.caPem })}\n`);
process.on("message", (message) => {
  if (message === "stats") {
    process.send?.({
      total: standin.stats.total,
      byPath: standin.stats.byPath,
      byMethod: standin.stats.byMethod,
    });
    standin.stats.reset();
  }
  if (message === "stop") void standin.close().then(() => process.exit(0));
});
