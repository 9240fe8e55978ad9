// The history samples (docs/behaviour.md §9.50) through the real sync path: Proxmox stand-in →
// sync or light poll → one sample in the transaction that ends the run.
import {
  createProxmoxStandin,
  lxcGuest,
  proxmoxNode,
  qemuGuest,
} from "@hyperlens/standins/testing";
import { describe, expect, it } from "vitest";
import { eachTestConnectedTo } from "../testing/standin-connections.ts";
import { syncConnection, trySyncConnection } from "./coordinator.ts";
import { startFeedRetentionSweep } from "./feed-retention-sweep.ts";

const pve = eachTestConnectedTo("PROXMOX", "lab", () =>
  createProxmoxStandin({
    version: "9.1",
    cluster: {
      name: "lab",
      nodes: [proxmoxNode({ name: "pve1" }, 0)],
      guests: [
        qemuGuest({ vmid: 100, name: "web", node: "pve1", status: "running" }),
        qemuGuest({ vmid: 101, name: "db", node: "pve1", status: "stopped" }),
        qemuGuest({ vmid: 900, name: "golden", node: "pve1", template: true }),
        lxcGuest({ vmid: 200, name: "cache", node: "pve1", status: "running" }),
      ],
    },
  }),
);

const samples = () =>
  pve.services.prisma.inventorySample.findMany({
    where: { connectionId: pve.connectionId },
    orderBy: { at: "asc" },
    select: { syncRunId: true, at: true, vms: true, containers: true, running: true },
  });

/** One light poll, to its end; the sync before it lets go of the connection just after its end. */
async function poll() {
  for (let tries = 0; tries < 50; tries += 1) {
    const attempt = await trySyncConnection(pve.services, pve.connectionId, {
      trigger: "SCHEDULE",
      lightPoll: true,
    });
    if (attempt.kind === "started") return attempt.sync.done;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the poll did not start");
}

describe("history samples (docs/behaviour.md §9.50)", () => {
  it("a sync's end stores the connection's VMs, containers and running guests, templates left out", async () => {
    const result = await pve.sync();
    expect(result.outcome).toBe("SUCCESS");
    const run = await pve.services.prisma.syncRun.findUniqueOrThrow({
      where: { id: result.syncRunId },
    });
    expect(await samples()).toEqual([
      { syncRunId: run.id, at: run.finishedAt, vms: 2, containers: 1, running: 2 },
    ]);
  });

  it("a light poll that changed something stores one; one that changed nothing, none", async () => {
    await pve.sync();
    expect((await poll()).outcome).toBe("SUCCESS");
    expect(await samples()).toHaveLength(1);
    pve.standin.cluster.removeGuest(101);
    pve.standin.cluster.setStatus(200, "stopped");
    expect((await poll()).outcome).toBe("SUCCESS");
    expect(
      (await samples()).map(({ vms, containers, running }) => ({ vms, containers, running })),
    ).toEqual([
      { vms: 2, containers: 1, running: 2 },
      { vms: 1, containers: 1, running: 1 },
    ]);
  });

  it("a failed sync and a dry run store none", async () => {
    await pve.sync();
    const dry = syncConnection(pve.services, pve.connectionId, { trigger: "MANUAL", dryRun: true });
    expect((await dry.done).outcome).toBe("SUCCESS");
    pve.standin.faults.fail(/.*/, 500);
    expect((await pve.sync()).outcome).toBe("FAILED");
    expect(await samples()).toHaveLength(1);
  });

  it("samples older than the change feed's retention are deleted by its sweep; newer ones kept", async () => {
    await pve.sync();
    const { prisma } = pve.services;
    const DAY = 86_400_000;
    const [kept] = await samples();
    await prisma.inventorySample.create({
      data: {
        connectionId: pve.connectionId,
        at: new Date(Date.now() - 8 * DAY),
        vms: 9,
        containers: 9,
        running: 9,
      },
    });
    const sweep = startFeedRetentionSweep(pve.services, 7 * DAY);
    await sweep.sweep();
    await sweep.stop();
    expect(await samples()).toEqual([kept]);
  });
});
