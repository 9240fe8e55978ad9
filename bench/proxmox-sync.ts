// Proxmox VE: 10 nodes, 5,000 guests, 20 ms per request.
import { benchSourceSync } from "./source-sync.ts";

const NODES = Number(process.env.BENCH_NODES ?? 10);
const GUESTS = Number(process.env.BENCH_GUESTS ?? 5000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);

const count = (paths: string[], test: (p: string) => boolean) => paths.filter(test).length;

/** Runs the Proxmox sync benchmark and prints its figures. */
export function benchProxmoxSync() {
  return benchSourceSync({
    title: `Proxmox full sync: ${NODES} nodes, ${GUESTS} guests, ${LATENCY_MS} ms per request`,
    kind: "PROXMOX",
    standin: { kind: "proxmox", nodes: NODES, guests: GUESTS, latencyMs: LATENCY_MS },
    connection: (url, caPem) => ({
      url,
      caPem,
      username: "hyperlens@pve",
      tokenId: "inventory",
      secret: "5f0c8e4e-8f5b-4c1e-9a57-2d3b1f6c7a90",
    }),
    describeRequests: (stats) => {
      const paths = Object.keys(stats.byPath);
      const configs = count(paths, (p) => p.endsWith("/config"));
      const agents = count(paths, (p) => p.includes("/agent/"));
      const live = count(paths, (p) => p.endsWith("/interfaces"));
      return `${configs} configs, ${agents} agent calls, ${live} container interfaces, ${stats.total - configs - agents - live} lists and cluster`;
    },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchProxmoxSync();
