// Cross-source identity end to end (docs/behaviour.md §10): a Director stand-in whose registered vCenter is a
// vCenter stand-in, and whose VMs carry that vCenter's morefs, both synced through the API's
// services; the link is then read through GraphQL in both directions.
import {
  createVcdStandin,
  createVcenterStandin,
  generateVcenter,
  type VcdStandin,
  type VcenterStandin,
} from "@hyperlens/standins/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { syncConnection } from "../syncs/coordinator.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

type DirectorRow = {
  name: string;
  backingMoref: string | null;
  backingVm: {
    moref: string;
    name: string;
    connection: { name: string };
    backedDirectorVm: { name: string } | null;
  } | null;
};
type VcenterRow = {
  name: string;
  moref: string;
  removedAt: string | null;
  connection: { name: string };
  backedDirectorVm: { name: string; backingMoref: string } | null;
};

const DIRECTOR_VMS = `query {
  virtualMachines(first: 20, filter: { source: [VCD] }) { edges { node { name ... on VcdVm {
    backingMoref
    backingVm { moref name connection { name } backedDirectorVm { name } }
  } } } }
}`;
const VCENTER_VMS = `query {
  virtualMachines(first: 20, filter: { source: [VCENTER], includeRemoved: true }) { edges { node {
    name removedAt connection { name }
    ... on VcenterVm { moref backedDirectorVm { name ... on VcdVm { backingMoref } } }
  } } }
}`;

let app: TestApp;
let viewer: string;
let director: VcdStandin;
const vcenters: VcenterStandin[] = [];

beforeEach(async () => {
  app = await startTestApp();
  viewer = await app.signedInAs("viewer", { capabilities: ["VIEW_INVENTORY"] });
  director = await createVcdStandin();
});

afterEach(async () => {
  await director?.close();
  for (const vcenter of vcenters.splice(0)) await vcenter.close();
  await app?.close();
});

async function startVcenter(): Promise<VcenterStandin> {
  // The same seed everywhere: every vCenter has the same morefs, as real ones often do.
  const model = generateVcenter({ clustersPerDc: 1, hostsPerCluster: 2, vms: 8, seed: 3 });
  const vcenter = await createVcenterStandin({ model });
  vcenters.push(vcenter);
  return vcenter;
}

/** Registers `vcenter` in the Director (as Director spells addresses) and backs its VMs with it. */
function backDirectorWith(vcenter: VcenterStandin): void {
  director.model.vcenter.url = `${vcenter.url}/sdk`;
  director.model.vms.forEach((vm, i) => {
    const moref = vcenter.model.vms[i]?.id;
    if (!moref) throw new Error("the vCenter has fewer VMs than the Director");
    director.model.updateVm(vm.id, { moref });
  });
}

async function connect(
  kind: "VCD" | "VCENTER",
  name: string,
  standin: VcdStandin | VcenterStandin,
) {
  const connection = await saveStandinConnection(app.services, kind, standin, name);
  const result = await syncConnection(app.services, connection.id, { trigger: "MANUAL" }).done;
  expect(result.outcome).toBe("SUCCESS");
  return connection.id;
}

const connectDirector = () => connect("VCD", "director", director);
const connectVcenter = (name: string, vcenter: VcenterStandin) => connect("VCENTER", name, vcenter);

async function rows<T>(query: string): Promise<T[]> {
  const res = await app.graphql<{ virtualMachines: { edges: { node: T }[] } }>(
    query,
    {},
    {
      cookie: viewer,
    },
  );
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data?.virtualMachines.edges.map((e) => e.node) ?? [];
}
const directorVms = () => rows<DirectorRow>(DIRECTOR_VMS);
const vcenterVms = () => rows<VcenterRow>(VCENTER_VMS);

describe("a Director VM and the vCenter VM backing it", () => {
  it("are linked both ways when both are connected", async () => {
    const vcenter = await startVcenter();
    backDirectorWith(vcenter);
    await connectVcenter("vcenter-a", vcenter);
    await connectDirector();
    const fromDirector = await directorVms();
    expect(fromDirector.length).toBeGreaterThan(2);
    for (const vm of fromDirector) {
      expect(vm.backingVm, vm.name).toMatchObject({
        moref: vm.backingMoref,
        connection: { name: "vcenter-a" },
        backedDirectorVm: { name: vm.name },
      });
    }
    const fromVcenter = await vcenterVms();
    const backing = fromVcenter.filter((vm) => vm.backedDirectorVm !== null);
    expect(backing.map((vm) => vm.backedDirectorVm?.name).sort()).toEqual(
      fromDirector.map((vm) => vm.name).sort(),
    );
    expect(backing.every((vm) => vm.backedDirectorVm?.backingMoref === vm.moref)).toBe(true);
    expect(fromVcenter.length - backing.length).toBeGreaterThan(0);
  });

  it("are not linked while the vCenter is not connected", async () => {
    backDirectorWith(await startVcenter());
    await connectDirector();
    const fromDirector = await directorVms();
    expect(fromDirector.every((vm) => vm.backingMoref !== null && vm.backingVm === null)).toBe(
      true,
    );
  });

  it("are not linked when the vCenter has no VM with the Director VM's moref", async () => {
    const vcenter = await startVcenter();
    backDirectorWith(vcenter);
    const [first] = director.model.vms;
    director.model.updateVm(first?.id ?? "", { moref: "vm-424242" });
    await connectVcenter("vcenter-a", vcenter);
    await connectDirector();
    const byName = new Map((await directorVms()).map((vm) => [vm.name, vm]));
    expect(byName.get(first?.name ?? "")).toMatchObject({
      backingMoref: "vm-424242",
      backingVm: null,
    });
    expect([...byName.values()].filter((vm) => vm.backingVm !== null)).toHaveLength(
      byName.size - 1,
    );
  });

  it("are no longer linked once the vCenter VM is removed", async () => {
    const vcenter = await startVcenter();
    backDirectorWith(vcenter);
    const vcenterId = await connectVcenter("vcenter-a", vcenter);
    await connectDirector();
    const [first] = director.model.vms;
    const moref = first?.moref ?? "";
    expect((await directorVms()).find((vm) => vm.name === first?.name)?.backingVm).not.toBeNull();
    vcenter.model.removeVm(moref);
    const resync = await syncConnection(app.services, vcenterId, { trigger: "MANUAL" }).done;
    expect(resync.counts.removed).toBe(1);
    expect((await directorVms()).find((vm) => vm.name === first?.name)?.backingVm).toBeNull();
    const tombstone = (await vcenterVms()).find((vm) => vm.moref === moref);
    expect(tombstone).toMatchObject({ removedAt: expect.any(String), backedDirectorVm: null });
  });

  it("link only to the vCenter the Director names when two on one host differ by port", async () => {
    const [a, b] = [await startVcenter(), await startVcenter()];
    backDirectorWith(b);
    await connectVcenter("vcenter-a", a);
    await connectVcenter("vcenter-b", b);
    await connectDirector();
    const fromDirector = await directorVms();
    expect(fromDirector.every((vm) => vm.backingVm?.connection.name === "vcenter-b")).toBe(true);
    const fromVcenters = await vcenterVms();
    const linkedOn = (name: string) =>
      fromVcenters.filter((vm) => vm.connection.name === name && vm.backedDirectorVm !== null);
    expect(linkedOn("vcenter-a")).toEqual([]);
    expect(linkedOn("vcenter-b")).toHaveLength(fromDirector.length);
  });

  it("are not linked after a sync that could not read Director's vCenters, which it logs; the next one links", async () => {
    const vcenter = await startVcenter();
    backDirectorWith(vcenter);
    await connectVcenter("vcenter-a", vcenter);
    const fault = director.faults.fail("/cloudapi/1.0.0/virtualCenters", 500);
    const directorId = await connectDirector();
    expect((await directorVms()).every((vm) => vm.backingVm === null)).toBe(true);
    expect(app.logLines.join("\n")).toContain("registered vCenters could not be read");
    fault.remove();
    await syncConnection(app.services, directorId, { trigger: "MANUAL" }).done;
    expect((await directorVms()).every((vm) => vm.backingVm !== null)).toBe(true);
  });
});

// docs/behaviour.md §10.12: the list shows such a pair twice, each row with its source and the link;
// the Servers figures count the machine once.
const FIGURES = `query {
  vcd: virtualMachines(first: 0, filter: { source: [VCD], kind: [VM], isTemplate: false }) { totalCount }
  vcenter: virtualMachines(first: 0, filter: { source: [VCENTER], kind: [VM], isTemplate: false }) { totalCount }
  pairs: crossSourcePairs(filter: { kind: [VM], isTemplate: false }) { count cpuCount memoryBytes }
}`;
type Figures = {
  vcd: { totalCount: number };
  vcenter: { totalCount: number };
  pairs: { count: number; cpuCount: number; memoryBytes: number };
};

async function figures(cookie = viewer): Promise<Figures> {
  const res = await app.graphql<Figures>(FIGURES, {}, { cookie });
  if (!res.body.data) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

describe("the summary figures", () => {
  it("count a Director VM and the vCenter VM backing it once", async () => {
    const vcenter = await startVcenter();
    backDirectorWith(vcenter);
    await connectVcenter("vcenter-a", vcenter);
    await connectDirector();
    // The Director's template is a catalog item, not read (docs/behaviour.md §6.4).
    const morefs = new Set((await directorVms()).map((vm) => vm.backingMoref));
    const backing = vcenter.model.vms.filter((vm) => morefs.has(vm.id));
    const directors = morefs.size;
    expect(backing).toHaveLength(directors);
    const { vcd, vcenter: vc, pairs } = await figures();
    expect(vcd.totalCount).toBe(directors);
    expect(vc.totalCount).toBe(vcenter.model.vms.length);
    expect(pairs.count).toBe(directors);
    // Each machine once: every vCenter VM, the Director ones among them.
    expect(vcd.totalCount + vc.totalCount - pairs.count).toBe(vcenter.model.vms.length);
    expect(pairs.cpuCount).toBe(backing.reduce((sum, vm) => sum + (vm.cpuCount ?? 0), 0));
  });

  it("count nothing twice that is not linked: an unconnected vCenter, a moref it lacks", async () => {
    const vcenter = await startVcenter();
    backDirectorWith(vcenter);
    const directorId = await connectDirector();
    expect((await figures()).pairs.count).toBe(0);
    const [first] = director.model.vms;
    director.model.updateVm(first?.id ?? "", { moref: "vm-424242" });
    await connectVcenter("vcenter-a", vcenter);
    await syncConnection(app.services, directorId, { trigger: "MANUAL" }).done;
    const { vcd, pairs } = await figures();
    expect(pairs.count).toBe(vcd.totalCount - 1);
  });

  it("count a pair once when two vCenters share its moref: only the one the Director names", async () => {
    const [a, b] = [await startVcenter(), await startVcenter()];
    backDirectorWith(b);
    await connectVcenter("vcenter-a", a);
    await connectVcenter("vcenter-b", b);
    await connectDirector();
    const { vcd, pairs } = await figures();
    expect(pairs.count).toBe(vcd.totalCount);
  });
});
