// The light poll's rules (docs/behaviour.md §8.7, §8.8) end to end: Proxmox stand-in → one
// /cluster/resources call → the details of changed guests only → the sync engine's writes.
import { createProxmoxStandin, proxmoxNode, qemuGuest } from "@hyperlens/standins/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { eachTestConnectedTo } from "../testing/standin-connections.ts";
import { syncConnection, trySyncConnection } from "./coordinator.ts";

const guests = (node: string, first: number, count: number) =>
  Array.from({ length: count }, (_, i) =>
    qemuGuest({
      vmid: first + i,
      name: `${node}-vm${i}`,
      node,
      nics: [{ mac: `BC:24:11:00:${node.slice(-1)}${i}:0${i % 10}` }],
    }),
  );

const pve = eachTestConnectedTo("PROXMOX", "lab", () =>
  createProxmoxStandin({
    version: "9.1",
    cluster: {
      name: "lab",
      nodes: [proxmoxNode({ name: "pve1" }, 0), proxmoxNode({ name: "pve2" }, 1)],
      guests: [...guests("pve1", 100, 4), ...guests("pve2", 200, 4)],
    },
  }),
);

/** One light poll, to its end. */
async function poll() {
  const attempt = await trySyncConnection(pve.services, pve.connectionId, {
    trigger: "SCHEDULE",
    lightPoll: true,
  });
  if (attempt.kind !== "started") throw new Error(`the poll did not start: ${attempt.kind}`);
  return attempt.sync.done;
}

/** Everything a write would touch: the rows as stored, their history, the feed and the runs. */
async function everything() {
  const { prisma } = pve.services;
  const where = { connectionId: pve.connectionId };
  return {
    vms: await prisma.virtualMachine.findMany({ where, orderBy: { externalId: "asc" } }),
    vmEvents: await prisma.vmEvent.count(),
    feed: await prisma.inventoryEvent.count(),
    runs: await prisma.syncRun.count({ where }),
  };
}

const byExternalId = async () => new Map((await pve.stored()).map((r) => [r.externalId, r]));

beforeEach(async () => {
  expect((await pve.sync()).outcome).toBe("SUCCESS");
  pve.standin.requests.length = 0;
});

describe("the light poll (docs/behaviour.md §8.7, §8.8)", () => {
  it("an unchanged light poll asks one request and writes nothing: no row, no event, no run", async () => {
    const before = await everything();
    const result = await poll();
    expect(result.outcome).toBe("SUCCESS");
    expect(await everything()).toEqual(before);
    expect(pve.standin.requests.map((r) => `${r.path}?${r.query}`)).toEqual([
      "/api2/json/cluster/resources?type=vm",
    ]);
  });

  it("a guest created on the stand-in appears after one poll, and only its details are read", async () => {
    pve.standin.cluster.addGuest(
      qemuGuest({ vmid: 300, name: "fresh", node: "pve2", nics: [{ mac: "BC:24:11:FF:00:01" }] }),
    );
    const result = await poll();
    expect(result.counts).toMatchObject({ added: 1, changed: 0, removed: 0 });
    expect((await byExternalId()).get("300")).toMatchObject({ name: "fresh", nodeName: "pve2" });
    const guestPaths = pve.standin.requests
      .map((r) => r.path)
      .filter((path) => /\/(qemu|lxc)\/\d+/.test(path));
    expect(guestPaths.length).toBeGreaterThan(0);
    for (const path of guestPaths) expect(path).toMatch(/\/qemu\/300\//);
    const run = await pve.services.prisma.syncRun.findUniqueOrThrow({
      where: { id: result.syncRunId },
    });
    expect(run).toMatchObject({ trigger: "POLL", outcome: "SUCCESS" });
  });

  it("a light poll whose list call fails removes nothing and writes nothing", async () => {
    pve.standin.cluster.removeGuest(101);
    pve.standin.faults.fail("/cluster/resources", 500);
    const before = await everything();
    const result = await poll();
    expect(result.outcome).toBe("FAILED");
    expect(await everything()).toEqual(before);
    expect((await byExternalId()).has("101")).toBe(true);
  });

  it("a moved guest is moved: same row, new node, a MOVED event, never REMOVED and re-added", async () => {
    const before = (await byExternalId()).get("101");
    pve.standin.cluster.moveGuest(101, "pve2");
    const result = await poll();
    expect(result.counts).toMatchObject({ added: 0, changed: 1, removed: 0 });
    const after = (await byExternalId()).get("101");
    expect(after).toMatchObject({ id: before?.id, nodeName: "pve2", listKey: "pve2/qemu" });
    const events = await pve.services.prisma.vmEvent.findMany({
      where: { vmId: before?.id, syncRunId: result.syncRunId },
    });
    expect(events.map((e) => e.type)).toContain("MOVED");
    expect(events.map((e) => e.type)).not.toContain("REMOVED");
    expect(events.map((e) => e.type)).not.toContain("APPEARED");
    const feed = await pve.services.prisma.inventoryEvent.findMany({
      where: { syncRunId: result.syncRunId },
    });
    expect(feed.map((e) => e.type)).not.toContain("VM_REMOVED");
    expect(feed.map((e) => e.type)).not.toContain("VM_ADDED");
  });

  it("renames and power changes are read and written", async () => {
    pve.standin.cluster.rename(102, "renamed");
    pve.standin.cluster.setStatus(203, "stopped");
    const result = await poll();
    expect(result.counts).toMatchObject({ changed: 2 });
    const stored = await byExternalId();
    expect(stored.get("102")?.name).toBe("renamed");
    expect(stored.get("203")?.state).toBe("STOPPED");
  });

  it("a deleted guest is tombstoned by the poll when the guard allows it", async () => {
    pve.standin.cluster.removeGuest(101);
    const result = await poll();
    expect(result.counts).toMatchObject({ removed: 1 });
    expect((await byExternalId()).has("101")).toBe(false);
    const row = await pve.services.prisma.virtualMachine.findFirstOrThrow({
      where: { connectionId: pve.connectionId, externalId: "101" },
    });
    expect(row.removedAt).not.toBeNull();
  });

  it("the guard holds: a list missing most known guests removes none of them", async () => {
    for (const vmid of [100, 101, 102, 103, 200]) pve.standin.cluster.removeGuest(vmid);
    const result = await poll();
    expect(result.guardFired).toBe(true);
    expect((await byExternalId()).size).toBe(8);
  });

  it("a manual sync asked for during a poll waits for it, then syncs: it never reports the poll", async () => {
    pve.standin.faults.delay("/cluster/resources", 300, { times: 1 });
    const polling = trySyncConnection(pve.services, pve.connectionId, {
      trigger: "SCHEDULE",
      lightPoll: true,
    });
    const manual = syncConnection(pve.services, pve.connectionId, { trigger: "MANUAL" });
    const result = await manual.done;
    await polling;
    const run = await pve.services.prisma.syncRun.findUniqueOrThrow({
      where: { id: result.syncRunId },
    });
    expect(run.trigger).toBe("MANUAL");
    const lists = pve.standin.requests.filter((r) => r.path === "/api2/json/nodes");
    expect(lists.length).toBe(1);
  });

  it("a guest on an offline node is kept and not read", async () => {
    pve.standin.cluster.setNodeOnline("pve2", false);
    const before = await everything();
    await poll();
    expect(await everything()).toEqual(before);
  });
});
