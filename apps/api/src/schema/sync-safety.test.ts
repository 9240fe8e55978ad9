// The safety rules of docs/behaviour.md §3 end to end: Proxmox stand-in → adapter → sync engine → database.
import {
  createProxmoxStandin,
  lxcGuest,
  proxmoxNode,
  qemuGuest,
} from "@hyperlens/standins/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { eachTestConnectedTo } from "../testing/standin-connections.ts";

function guestsOn(node: string, first: number, count: number) {
  return Array.from({ length: count }, (_, i) =>
    qemuGuest({
      vmid: first + i,
      name: `${node}-vm${i}`,
      node,
      nics: [{ mac: `BC:24:11:00:${node.slice(-1)}${i}:0${i % 10}` }],
    }),
  );
}

const pve = eachTestConnectedTo("PROXMOX", "lab", () =>
  createProxmoxStandin({
    version: "9.1",
    cluster: {
      name: "lab",
      nodes: [proxmoxNode({ name: "pve1" }, 0), proxmoxNode({ name: "pve2" }, 1)],
      guests: [
        ...guestsOn("pve1", 100, 4),
        ...guestsOn("pve2", 200, 4),
        lxcGuest({
          vmid: 300,
          name: "ct-a",
          node: "pve1",
          nics: [{ mac: "BC:24:11:CC:00:01", ip: "10.0.3.1/24" }],
        }),
        lxcGuest({
          vmid: 301,
          name: "ct-b",
          node: "pve1",
          nics: [{ mac: "BC:24:11:CC:00:02", ip: "10.0.3.2/24" }],
        }),
      ],
    },
  }),
);
const { sync } = pve;

beforeEach(async () => {
  const first = await sync();
  expect(first.outcome).toBe("SUCCESS");
});

async function present() {
  const rows = await pve.stored();
  return new Map(rows.map((r) => [r.externalId, r]));
}

describe("syncing Proxmox safely", () => {
  it("a node whose qemu list failed keeps its VMs while its lxc list still applies", async () => {
    pve.standin.faults.fail("/nodes/pve1/qemu", 500, {
      reason: "Internal Server Error",
      times: 100,
    });
    pve.standin.cluster.removeGuest(301);
    const result = await sync();
    expect(result.outcome).toBe("PARTIAL");
    const rows = await present();
    for (const vmid of ["100", "101", "102", "103"])
      expect(rows.get(vmid)?.confirmation).toBe("LIST_FAILED");
    expect(rows.has("301")).toBe(false);
    expect(rows.get("300")?.confirmation).toBe("CONFIRMED");
  });

  it("an offline node keeps its VMs, marked as on an offline node", async () => {
    pve.standin.cluster.setNodeOnline("pve2", false);
    await sync();
    const rows = await present();
    for (const vmid of ["200", "201", "202", "203"])
      expect(rows.get(vmid)?.confirmation).toBe("NODE_OFFLINE");
  });

  it("the guard fires below half of the known guests in the lists that came back and removes nothing", async () => {
    for (const vmid of [100, 101, 102, 200, 201, 202, 203, 300, 301])
      pve.standin.cluster.removeGuest(vmid);
    const result = await sync();
    expect(result.guardFired).toBe(true);
    expect(result.message).toMatch(/fewer than half/);
    expect((await present()).size).toBe(10);
  });

  it("removes a guest that is gone from a list that came back, as a tombstone", async () => {
    pve.standin.cluster.removeGuest(100);
    const result = await sync();
    expect(result.counts.removed).toBe(1);
    const row = await pve.services.prisma.virtualMachine.findFirstOrThrow({
      where: { connectionId: pve.connectionId, externalId: "100" },
    });
    expect(row.removedAt).not.toBeNull();
    expect(row.removedReason).toContain("pve1/qemu");
  });

  it("a guest that moved node is recorded on the new node and not removed", async () => {
    pve.standin.cluster.moveGuest(100, "pve2");
    const result = await sync();
    expect(result.counts.removed).toBe(0);
    const row = (await present()).get("100");
    expect(row?.nodeName).toBe("pve2");
    const events = await pve.services.prisma.vmEvent.findMany({
      where: { vmId: row?.id, type: "MOVED" },
    });
    expect(events).toHaveLength(1);
  });

  it("an unreachable server fails the sync as unreachable and removes nothing", async () => {
    await pve.standin.close();
    const result = await sync();
    expect(result).toMatchObject({ outcome: "FAILED", errorClass: "unreachable" });
    expect((await present()).size).toBe(10);
  });
});
