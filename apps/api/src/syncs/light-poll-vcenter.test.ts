// The light poll's rules (docs/behaviour.md §8.7, §8.8) for vCenter: the VM list as the full
// sync reads it (whole and per host), then the details of only the VMs that changed.
import {
  createVcenterStandin,
  generateVcenter,
  type VcenterModel,
  vcenterVm,
} from "@hyperlens/standins/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { eachTestConnectedTo } from "../testing/standin-connections.ts";
import { trySyncConnection } from "./coordinator.ts";

let model: VcenterModel;
const vcenter = eachTestConnectedTo("VCENTER", "vcenter", () => {
  model = generateVcenter({ datacenters: 1, clustersPerDc: 1, hostsPerCluster: 3, vms: 12 });
  return createVcenterStandin({ model });
});

async function poll() {
  const attempt = await trySyncConnection(vcenter.services, vcenter.connectionId, {
    trigger: "SCHEDULE",
    lightPoll: true,
  });
  if (attempt.kind !== "started") throw new Error(`the poll did not start: ${attempt.kind}`);
  return attempt.sync.done;
}

async function everything() {
  const { prisma } = vcenter.services;
  const where = { connectionId: vcenter.connectionId };
  return {
    vms: await prisma.virtualMachine.findMany({ where, orderBy: { externalId: "asc" } }),
    vmEvents: await prisma.vmEvent.count(),
    feed: await prisma.inventoryEvent.count(),
    runs: await prisma.syncRun.count({ where }),
  };
}

/** Requests for one VM's details (`/api/vcenter/vm/{id}…`), by VM id. */
const detailRequests = () =>
  vcenter.standin.requests.flatMap((r) => {
    const match = /^\/api\/vcenter\/vm\/([^/]+)/.exec(r.path);
    return match?.[1] ? [match[1]] : [];
  });

beforeEach(async () => {
  expect((await vcenter.sync()).outcome).toBe("SUCCESS");
  vcenter.standin.requests.length = 0;
});

describe("the vCenter light poll (docs/behaviour.md §8.7, §8.8)", () => {
  it("an unchanged poll reads no VM's details, writes nothing and logs out", async () => {
    const before = await everything();
    expect((await poll()).outcome).toBe("SUCCESS");
    expect(await everything()).toEqual(before);
    expect(detailRequests()).toEqual([]);
    expect(vcenter.standin.openSessions).toBe(0);
  });

  it("a new VM appears after one poll, and only its details are read", async () => {
    const first = model.vms[0];
    if (!first) throw new Error("no VM");
    model.addVm(
      vcenterVm({ id: "vm-9001", name: "fresh", hostId: first.hostId, folderId: first.folderId }),
    );
    const result = await poll();
    expect(result.counts).toMatchObject({ added: 1, removed: 0 });
    expect(new Set(detailRequests())).toEqual(new Set(["vm-9001"]));
    expect(vcenter.standin.openSessions).toBe(0);
  });

  it("a VM moved to another host is moved: same row, new host, a MOVED event", async () => {
    const vm = model.vms[0];
    const other = model.hosts.find((h) => h.id !== vm?.hostId);
    if (!vm || !other) throw new Error("no VM or host");
    const before = await vcenter.services.prisma.virtualMachine.findFirstOrThrow({
      where: { connectionId: vcenter.connectionId, externalId: vm.id },
    });
    model.moveVm(vm.id, other.id);
    const result = await poll();
    expect(result.counts).toMatchObject({ added: 0, changed: 1, removed: 0 });
    const after = await vcenter.services.prisma.virtualMachine.findUniqueOrThrow({
      where: { id: before.id },
    });
    expect(after.hostName).toBe(other.name);
    const events = await vcenter.services.prisma.vmEvent.findMany({
      where: { vmId: before.id, syncRunId: result.syncRunId },
    });
    expect(events.map((e) => e.type)).toContain("MOVED");
    expect(events.map((e) => e.type)).not.toContain("REMOVED");
  });

  it("a poll whose VM list fails removes nothing and writes nothing", async () => {
    const gone = model.vms[1];
    if (!gone) throw new Error("no VM");
    model.removeVm(gone.id);
    vcenter.standin.faults.fail("/api/vcenter/vm", 503, { times: 50 });
    const before = await everything();
    expect((await poll()).outcome).toBe("FAILED");
    expect(await everything()).toEqual(before);
    expect(vcenter.standin.openSessions).toBe(0);
  });
});
