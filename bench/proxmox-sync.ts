// Proxmox VE: 10 nodes, 5,000 guests, 20 ms per request; the default 16 requests per connection,
// 2 per node, against concurrency 1 (target: 12× faster; 16× is the limit).
import type { Figure } from "./figures.ts";
import { settings } from "./settings.ts";
import { benchSourceSync, type SyncScenario } from "./source-sync.ts";
import { countRequests } from "./standin.ts";

/** The GraphQL input of a connection to the Proxmox stand-in at `url`. */
export const proxmoxStandinConnection = (url: string, caPem: string) => ({
  url,
  caPem,
  username: "hyperlens@pve",
  tokenId: "inventory",
  secret: "5f0c8e4e-8f5b-4c1e-9a57-2d3b1f6c7a90",
});

/** Runs the Proxmox sync scenario. */
export function benchProxmoxSync(): Promise<Figure[]> {
  const { proxmoxNodes: nodes, proxmoxGuests: guests, latencyMs } = settings;
  return benchSourceSync(proxmoxScenario(nodes, guests, latencyMs));
}

/** A Proxmox cluster of `nodes` nodes holding `guests` guests, `latencyMs` per request. */
export function proxmoxScenario(nodes: number, guests: number, latencyMs: number): SyncScenario {
  return {
    name: `Proxmox ${nodes} nodes / ${guests.toLocaleString("en-US")} guests`,
    kind: "PROXMOX",
    standin: { kind: "proxmox", nodes, guests, latencyMs },
    limits: { perConnection: 16, perNode: 2, nodes },
    speedUpTarget: 12,
    connection: proxmoxStandinConnection,
    describeRequests: (stats) => {
      const configs = countRequests(stats, (p) => p.endsWith("/config"));
      const agents = countRequests(stats, (p) => p.includes("/agent/"));
      const live = countRequests(stats, (p) => p.endsWith("/interfaces"));
      const rest = stats.total - configs - agents - live;
      return `${configs} configs, ${agents} agent calls, ${live} container interfaces, ${rest} lists and cluster`;
    },
  };
}
