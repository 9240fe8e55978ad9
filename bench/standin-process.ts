// Runs a Proxmox stand-in in its own process, so the benchmark measures Hyperlens, not the
// stand-in sharing its CPU. Prints {url, caPem} as one JSON line; answers "stats" over IPC.
import { createProxmoxStandin, generateCluster } from "@hyperlens/standins";

const options = JSON.parse(process.argv[2] ?? "{}") as {
  nodes: number;
  guests: number;
  latencyMs: number;
  version?: "7.4" | "8.4" | "9.1";
};
const standin = await createProxmoxStandin({
  cluster: generateCluster({ nodes: options.nodes, guests: options.guests, seed: 42 }),
  latencyMs: options.latencyMs,
  version: options.version ?? "9.1",
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
