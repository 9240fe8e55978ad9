// Requests per node and per connection, and the fair schedule across nodes (docs/behaviour.md
// §3.7, §3.8), counted by the Proxmox stand-in, whose nodes each serve with 3 workers like pveproxy.
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  type ProxmoxStandin,
  proxmoxNode,
  qemuGuest,
  requestNode,
} from "@hyperlens/standins/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createProxmoxClient } from "../client.ts";
import { readProxmoxInventory } from "./read-inventory.ts";

let standin: ProxmoxStandin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

/** A cluster with the given number of stopped VMs per node (one config read each). */
function cluster(guestsPerNode: Record<string, number>) {
  const names = Object.keys(guestsPerNode);
  let vmid = 100;
  return {
    name: "lab",
    nodes: names.map((name, i) => proxmoxNode({ name }, i)),
    guests: names.flatMap((node) =>
      Array.from({ length: guestsPerNode[node] ?? 0 }, () => {
        vmid += 1;
        return qemuGuest({ vmid, name: `vm${vmid}`, node, status: "stopped" });
      }),
    ),
  };
}

/** Reads the cluster at the given limits; the latency only makes requests overlap. */
async function read(
  guestsPerNode: Record<string, number>,
  limits: { perConnection?: number; perNode?: number },
) {
  standin = await createProxmoxStandin({ cluster: cluster(guestsPerNode), latencyMs: 15 });
  const client = createProxmoxClient({
    http: {
      connectionId: "c1",
      baseUrl: standin.url,
      caPem: standin.caPem,
      allowLoopbackTargets: true,
      ...(limits.perConnection ? { concurrency: { perConnection: limits.perConnection } } : {}),
    },
    ...(limits.perNode ? { requestsPerNode: limits.perNode } : {}),
    auth: { kind: "token", tokenId: DEFAULT_TOKEN.id, secret: DEFAULT_TOKEN.secret },
  });
  try {
    const snapshot = await readProxmoxInventory(client);
    expect(snapshot.lists.every((l) => l.status === "ok")).toBe(true);
    return { standin, snapshot };
  } finally {
    await client.close();
  }
}

describe("requests per node and per connection", () => {
  it("never has more than 2 requests (the default) in flight for one node, and keeps 2 busy", async () => {
    const { standin } = await read({ pve1: 20, pve2: 20, pve3: 20 }, { perConnection: 16 });
    // docs/behaviour.md §3.7: one of pveproxy's 3 workers stays free for the node's own UI.
    expect(standin.nodeWorkers.maxInFlightByNode()).toEqual({ pve1: 2, pve2: 2, pve3: 2 });
  });

  it("keeps to a per-node limit set on the connection", async () => {
    const { standin } = await read({ pve1: 12, pve2: 12 }, { perConnection: 16, perNode: 1 });
    expect(standin.nodeWorkers.maxInFlightByNode()).toEqual({ pve1: 1, pve2: 1 });
  });

  it("keeps to the connection's cap when the nodes together would allow more", async () => {
    const nodes = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`pve${i + 1}`, 4]));
    const { standin } = await read(nodes, { perConnection: 4 });
    expect(standin.stats.maxInFlight).toBe(4);
    expect(Math.max(...Object.values(standin.nodeWorkers.maxInFlightByNode()))).toBeLessThanOrEqual(
      2,
    );
  });
});

describe("the schedule across nodes", () => {
  it("reads the small nodes' guests beside the big node's, not after them", async () => {
    const { standin } = await read(
      { big: 40, small1: 4, small2: 4, small3: 4 },
      { perConnection: 4 },
    );
    const configNodes = standin.requests
      .filter((r) => r.path.endsWith("/config"))
      .map((r) => requestNode(r.path));
    expect(configNodes).toHaveLength(52);
    // docs/behaviour.md §3.8: in turn, the 12 small-node reads are done by about the 16th read;
    // the big node's list first and one pool in list order would put them after its 40.
    const lastSmall = Math.max(
      ...["small1", "small2", "small3"].map((node) => configNodes.lastIndexOf(node)),
    );
    expect(lastSmall).toBeLessThan(20);
    // And every node's first read is among the first round, one per node.
    expect(new Set(configNodes.slice(0, 4))).toEqual(
      new Set(["big", "small1", "small2", "small3"]),
    );
  });
});
