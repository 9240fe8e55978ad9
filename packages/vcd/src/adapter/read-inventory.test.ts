// The Director adapter against the Director stand-in: the one "vms" list, its failure modes, the
// neutral VM shape, edge gateways, and no session left behind.
import {
  fieldSourceGaps,
  type ListRead,
  type NeutralVm,
  withShippedJudgement,
} from "@hyperlens/shared";
import {
  createVcdStandin,
  type VcdStandin,
  type VcdStandinOptions,
} from "@hyperlens/standins/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createVcdClient } from "../client.ts";
import { parseDisks } from "../parse/disks.ts";
import { parseNetworkConnectionSection } from "../parse/network-connections.ts";
import { parseVmQueryPage } from "../parse/vm-records.ts";
import {
  type AcmeDirectorSize,
  acmeDirector,
  acmeVmId,
  acmeVmIp,
  acmeVmMac,
  failEdgeGatewayPage,
  failQueryPage,
  failVmSections,
  misreportQueryPages,
  PROVIDER,
  readFixtureText,
  readHttpFixture,
  TENANT,
} from "../testing/index.ts";
import { VCD_FIELD_SOURCES } from "./field-sources.ts";
import { mapVcdVm } from "./map-vm.ts";
import { readVcdInventory } from "./read-inventory.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startStandin(inventory: AcmeDirectorSize, options: VcdStandinOptions = {}) {
  const standin = await createVcdStandin({ model: acmeDirector(inventory), ...options });
  cleanups.push(() => standin.close());
  return standin;
}

async function read(standin: VcdStandin, credentials = TENANT) {
  const client = createVcdClient({
    http: {
      connectionId: "vcd-1",
      baseUrl: standin.url,
      caPem: standin.caPem,
      // The stand-in listens on loopback, which hyper-http refuses unless told otherwise.
      allowLoopbackTargets: true,
      retry: { attempts: 1 },
    },
    credentials,
  });
  cleanups.push(() => client.close());
  return readVcdInventory(client, { parallelVms: 4 });
}

function onlyList(lists: ListRead[]): ListRead {
  expect(lists).toHaveLength(1);
  const [list] = lists;
  if (!list) throw new Error("no list");
  return list;
}

function vmsOf(list: ListRead): NeutralVm[] {
  if (list.status !== "ok") throw new Error(`list ${list.key} is ${list.status}`);
  return list.vms;
}

function expectNoSessionLeft(standin: VcdStandin) {
  expect(standin.sessions.length).toBeGreaterThan(0);
  expect(standin.openSessions).toBe(0);
}

describe("readVcdInventory", () => {
  it("reads every VM across capped pages into one ok list, templates left out", async () => {
    const standin = await startStandin({ vms: 70, templates: 2 }, { maxPageSize: 25 });
    const snapshot = await read(standin);
    const vms = vmsOf(onlyList(snapshot.lists));
    expect(vms).toHaveLength(70);
    expect(onlyList(snapshot.lists).key).toBe("vms");
    expect(new Set(vms.map((v) => v.externalId)).size).toBe(70);
    expect(
      new Set(standin.requests.filter((r) => r.path === "/api/query").map((r) => r.query)).size,
    ).toBe(3);
    expectNoSessionLeft(standin);
  });

  it("maps a VM to the neutral shape", async () => {
    const snapshot = await read(await startStandin({ vms: 2 }));
    const vm = vmsOf(onlyList(snapshot.lists)).find((v) => v.name === "vm-1");
    if (!vm) throw new Error("no vm-1");
    expect(withShippedJudgement(vm)).toMatchObject({
      externalId: `urn:vcloud:vm:${acmeVmId(1)}`,
      kind: "VM",
      state: "STOPPED",
      cpuCount: 2,
      memoryBytes: 2048 * 1024 * 1024,
      guestOs: "Ubuntu Linux (64-bit)",
      isTemplate: false,
      location: { orgName: "acme", vdcName: "acme-vdc", vappName: "vapp-0" },
      nics: [{ key: "nic0", mac: acmeVmMac(1), network: "vApp network test", isConnected: true }],
      ips: [{ address: acmeVmIp(1), origin: "PLATFORM", nicKey: "nic0", isAccepted: true }],
      ipsFromGuestAreLive: true,
      guestReport: { code: "NOT_OFFERED_BY_SOURCE" },
      disks: [
        { key: "2000", label: "Hard disk 1", capacityBytes: 10241 * 1024 * 1024, busType: "scsi" },
      ],
      diskTotalBytes: 10241 * 1024 * 1024,
    });
    expect(vm?.details).toMatchObject({ source: "VCD", location: { vdc: "acme-vdc" } });
    expect(vm?.backing).toBeUndefined();
  });

  it("a provider read links each VM to the vCenter and moref backing it", async () => {
    const standin = await startStandin({ vms: 1 });
    const snapshot = await read(standin, PROVIDER);
    const [vm] = vmsOf(onlyList(snapshot.lists));
    // The stand-in also lists the registered vCenters, so the backing names the vCenter's host.
    expect(vm?.backing).toEqual({
      vcenterId: standin.model.vcenter.id,
      vcenterHost: "vc01.example.test",
      moref: "vm-1000",
    });
    // The admin record names the org by href only; the org list names it (docs/behaviour.md §6.3).
    expect(vm?.location.orgName).toBe("acme");
  });

  it("fills exactly the fields docs/inventory.md explains, tenant and provider reads together", async () => {
    const standin = await startStandin({ vms: 3 });
    const vms = [
      ...vmsOf(onlyList((await read(standin)).lists)),
      ...vmsOf(onlyList((await read(standin, PROVIDER)).lists)),
    ];
    expect(fieldSourceGaps(VCD_FIELD_SOURCES, vms)).toEqual({ undeclared: [], neverFilled: [] });
  });

  it("a failed page fails the list (nothing removed) and still logs out", async () => {
    const standin = await startStandin({ vms: 60 }, { maxPageSize: 25 });
    failQueryPage(standin, 2, "query page broke");
    const list = onlyList((await read(standin)).lists);
    expect(list.status).toBe("failed");
    expect(list.status === "failed" && list.reason).toMatch(/query page broke/);
    expectNoSessionLeft(standin);
  });

  it("an empty page before total fails the list", async () => {
    // 25 VMs in pages of 25, but every page reports 30: page 2 comes back empty.
    const standin = await startStandin({ vms: 25 }, { maxPageSize: 25 });
    misreportQueryPages(standin, { total: 30 });
    expect(onlyList((await read(standin)).lists).status).toBe("failed");
  });

  it("one VM whose sections fail fails the whole list, naming the VM", async () => {
    const standin = await startStandin({ vms: 10 });
    failVmSections(standin, acmeVmId(4), "section broke");
    const list = onlyList((await read(standin)).lists);
    expect(list.status).toBe("failed");
    expect(list.status === "failed" && list.reason).toMatch(/vm-4 .*section broke/);
    expectNoSessionLeft(standin);
  });

  it("reads edge gateways of VDCs and VDC groups on every page", async () => {
    const standin = await startStandin({ edgeGateways: 7 }, { edgeGatewayMaxPageSize: 3 });
    const snapshot = await read(standin);
    expect(snapshot.edgeGateways?.isComplete).toBe(true);
    expect(snapshot.edgeGateways?.items).toHaveLength(7);
    expect(snapshot.edgeGateways?.items[1]).toMatchObject({
      name: "edge-1",
      ownerType: "VDC_GROUP",
      ownerName: "acme-group",
      orgName: "acme",
    });
    expect(snapshot.edgeGateways?.items[0]?.ownerType).toBe("VDC");
  });

  it("a failed edge gateway page leaves them incomplete, VMs unaffected", async () => {
    const standin = await startStandin({ vms: 2, edgeGateways: 7 }, { edgeGatewayMaxPageSize: 3 });
    failEdgeGatewayPage(standin, 3, "edge page broke");
    const snapshot = await read(standin);
    expect(snapshot.edgeGateways?.isComplete).toBe(false);
    expect(snapshot.edgeGateways?.reason).toMatch(/edge page broke/);
    expect(onlyList(snapshot.lists).status).toBe("ok");
  });

  it("sends nothing but GET besides the session login and logout", async () => {
    const standin = await startStandin({ vms: 30, edgeGateways: 4 });
    await read(standin);
    const writes = standin.requests
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}`);
    expect(writes).toHaveLength(2);
    expect(writes[0]).toBe("POST /cloudapi/1.0.0/sessions");
    expect(writes[1]).toMatch(/^DELETE \/cloudapi\/1\.0\.0\/sessions\/urn:vcloud:session:/);
    expect(standin.writeAttempts).toEqual([]);
  });
});

describe("mapVcdVm on recorded answers", () => {
  it("keeps the NAT address out of the VM's IPs but in its details", () => {
    const page = parseVmQueryPage(
      readFixtureText("query_vm/GET.200.page1-of-2-with-nextPage.synth.xml"),
      "q",
    );
    const nicFile =
      "vm_networkConnectionSection/GET.200.vm-84faa107-c0b9-4a21-adc5-b17e0c5355a2.http";
    const diskFile = "vm_disks/GET.200.vm-84faa107-c0b9-4a21-adc5-b17e0c5355a2.http";
    const record = page.vms[0];
    if (!record) throw new Error("no record");
    const vm = mapVcdVm(
      record,
      parseNetworkConnectionSection(readHttpFixture(nicFile).body, nicFile),
      parseDisks(readHttpFixture(diskFile).body, diskFile),
      { sessionOrgName: "acme" },
    );
    const { ips } = withShippedJudgement(vm);
    expect(ips.map((ip) => ip.address)).toEqual(["192.168.2.100"]);
    expect(JSON.stringify(vm.details)).toContain("10.12.7.4");
    // The disk carries Director's own name for it (docs/behaviour.md §6.3).
    expect(vm.disks).toEqual([
      { key: "2000", label: "Hard disk 1", capacityBytes: 10240 * 1024 * 1024, busType: "scsi" },
    ]);
    expect(vm.state).toBe("RUNNING");
  });

  it("a DHCP-leased address is marked DHCP", () => {
    const page = parseVmQueryPage(
      readFixtureText("query_vm/GET.200.page1-of-2-with-nextPage.synth.xml"),
      "q",
    );
    const nicFile =
      "vm_networkConnectionSection/GET.200.vm-350947aa-c16e-4eb3-98c1-fced9dac6dbc.http";
    const record = page.vms[1];
    if (!record) throw new Error("no record");
    const vm = mapVcdVm(
      record,
      parseNetworkConnectionSection(readHttpFixture(nicFile).body, nicFile),
      [],
      {
        sessionOrgName: null,
      },
    );
    expect(withShippedJudgement(vm).ips).toEqual([
      { address: "10.12.6.17", origin: "DHCP", nicKey: "nic0", isAccepted: true },
    ]);
    expect(vm.state).toBe("STOPPED");
  });
});
