// The light poll's rules (docs/behaviour.md §8.7, §8.8) for Cloud Director: the VM query pages as
// the full sync reads them, then the NIC and disk sections of only the VMs that changed.
import {
  createVcdStandin,
  type DirectorModel,
  generateDirector,
} from "@hyperlens/standins/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { eachTestConnectedTo } from "../testing/standin-connections.ts";
import { trySyncConnection } from "./coordinator.ts";

let model: DirectorModel;
const director = eachTestConnectedTo("VCD", "director", () => {
  model = generateDirector({ orgs: 2, vdcsPerOrg: 1, vms: 20, edgeGateways: 2, seed: 7 });
  return createVcdStandin({ model, maxPageSize: 8 });
});
const realVms = () => model.vms.filter((vm) => !model.vapp(vm.vappId)?.template);

async function poll() {
  const attempt = await trySyncConnection(director.services, director.connectionId, {
    trigger: "SCHEDULE",
    lightPoll: true,
  });
  if (attempt.kind !== "started") throw new Error(`the poll did not start: ${attempt.kind}`);
  return attempt.sync.done;
}

async function everything() {
  const { prisma } = director.services;
  const where = { connectionId: director.connectionId };
  return {
    vms: await prisma.virtualMachine.findMany({ where, orderBy: { externalId: "asc" } }),
    vmEvents: await prisma.vmEvent.count(),
    feed: await prisma.inventoryEvent.count(),
    runs: await prisma.syncRun.count({ where }),
  };
}

/** Requests for one VM's sections, by the VM part of their path. */
const sectionRequests = () =>
  director.standin.requests.flatMap((r) => {
    const match = /^\/api\/vApp\/(vm-[^/]+)\//.exec(r.path);
    return match?.[1] ? [match[1]] : [];
  });

beforeEach(async () => {
  expect((await director.sync()).outcome).toBe("SUCCESS");
  director.standin.requests.length = 0;
});

describe("the Director light poll (docs/behaviour.md §8.7, §8.8)", () => {
  it("an unchanged poll reads no VM's sections, writes nothing and logs out", async () => {
    const before = await everything();
    expect((await poll()).outcome).toBe("SUCCESS");
    expect(await everything()).toEqual(before);
    expect(director.standin.requests.some((r) => r.path === "/api/query")).toBe(true);
    expect(sectionRequests()).toEqual([]);
    expect(director.standin.openSessions).toBe(0);
  });

  it("a renamed VM is rewritten, and only its sections are read", async () => {
    const vm = realVms()[0];
    if (!vm) throw new Error("no VM");
    model.renameVm(vm.id, "renamed-by-tenant");
    const result = await poll();
    expect(result.counts).toMatchObject({ changed: 1, added: 0, removed: 0 });
    const rows = await director.stored();
    expect(rows.filter((r) => r.name === "renamed-by-tenant")).toHaveLength(1);
    expect(new Set(sectionRequests())).toEqual(new Set([`vm-${vm.id}`]));
    expect(director.standin.openSessions).toBe(0);
  });

  it("a poll whose query page fails removes nothing and writes nothing", async () => {
    const gone = realVms()[1];
    if (!gone) throw new Error("no VM");
    model.removeVm(gone.id);
    director.standin.faults.fail("/api/query", 503, { times: 50 });
    const before = await everything();
    expect((await poll()).outcome).toBe("FAILED");
    expect(await everything()).toEqual(before);
    expect(director.standin.openSessions).toBe(0);
  });
});
