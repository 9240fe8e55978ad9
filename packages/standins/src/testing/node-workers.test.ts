import { describe, expect, it } from "vitest";
import { proxmoxNode } from "../proxmox/guest-builders.ts";
import { DEFAULT_TOKEN } from "../proxmox/server.ts";
import { closedAfterEach } from "./closed-after-each.ts";
import { call } from "./https-client.ts";
import { requestNode } from "./node-workers.ts";
import { createProxmoxStandin } from "./standins.ts";

const start = closedAfterEach(createProxmoxStandin);
const cluster = () => ({
  name: "lab",
  nodes: [proxmoxNode({ name: "pve1" }, 0), proxmoxNode({ name: "pve2" }, 1)],
  guests: [],
});
const authorization = `PVEAPIToken=${DEFAULT_TOKEN.id}=${DEFAULT_TOKEN.secret}`;

/** Sends `count` concurrent reads of a node's VM list; each on its own connection. */
function readLists(standin: { url: string; caPem: string }, node: string, count: number) {
  return Array.from({ length: count }, () =>
    call(`${standin.url}/api2/json/nodes/${node}/qemu`, {
      ca: standin.caPem,
      headers: { authorization },
    }),
  );
}

describe("the Proxmox stand-in's worker pool per node (pveproxy: 3 workers)", () => {
  it("serves at most 3 requests of one node at once; the rest queue, other nodes serve theirs", async () => {
    // The latency is only there so the requests overlap; nothing here measures time.
    const standin = await start({ cluster: cluster(), latencyMs: 300 });
    const answers = await Promise.all([
      ...readLists(standin, "pve1", 6),
      ...readLists(standin, "pve2", 2),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const pve1 = standin.nodeWorkers.byNode.get("pve1");
    const pve2 = standin.nodeWorkers.byNode.get("pve2");
    // docs/behaviour.md §3.7: all six arrived together, three were served, three waited.
    expect(pve1).toMatchObject({ maxInFlight: 6, maxBusy: 3, inFlight: 0 });
    expect(pve2).toMatchObject({ maxInFlight: 2, maxBusy: 2 });
    expect(standin.nodeWorkers.maxInFlightByNode()).toEqual({ pve1: 6, pve2: 2 });
    standin.nodeWorkers.resetPeaks();
    expect(standin.nodeWorkers.maxInFlightByNode()).toEqual({ pve1: 0, pve2: 0 });
  });

  it("takes another number of workers per node", async () => {
    const standin = await start({ cluster: cluster(), latencyMs: 300, workersPerNode: 1 });
    await Promise.all(readLists(standin, "pve1", 3));
    expect(standin.nodeWorkers.byNode.get("pve1")).toMatchObject({ maxInFlight: 3, maxBusy: 1 });
  });

  it("names the node of a path only for /nodes/{node} and below", () => {
    expect(requestNode("/api2/json/nodes/pve1/qemu/100/config")).toBe("pve1");
    expect(requestNode("/api2/json/nodes/pve%2D1")).toBe("pve-1");
    expect(requestNode("/api2/json/nodes")).toBeUndefined();
    expect(requestNode("/api2/json/cluster/resources")).toBeUndefined();
  });
});
