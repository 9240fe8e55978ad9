// The Director adapter against the local HTTPS fake: the one "vms" list, its failure modes, the
// neutral VM shape, edge gateways, and no session left behind.
import type { ListRead, NeutralVm } from "@hyperlens/shared";
import { afterEach, describe, expect, it } from "vitest";
import { createVcdClient } from "../client.ts";
import { parseDisks } from "../parse/disks.ts";
import { parseNetworkConnectionSection } from "../parse/network-connections.ts";
import { parseVmQueryPage } from "../parse/vm-records.ts";
import {
  type FakeVcdOptions,
  type FakeVcdServer,
  fakeVmMac,
  PROVIDER,
  startFakeVcd,
  TENANT,
} from "../testing/fake-vcd-server.ts";
import { readFixtureText, readHttpFixture } from "../testing/fixtures.ts";
import { mapVcdVm } from "./map-vm.ts";
import { readVcdInventory } from "./read-inventory.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function read(options: FakeVcdOptions, credentials = TENANT) {
  const server = await startFakeVcd(options);
  const client = createVcdClient({
    http: {
      connectionId: "vcd-1",
      baseUrl: server.url,
      caPem: server.caPem,
      // The stand-in listens on loopback, which hyper-http refuses unless told otherwise.
      allowLoopbackTargets: true,
      retry: { attempts: 1 },
    },
    credentials,
  });
  cleanups.push(() => server.close());
  cleanups.push(() => client.close());
  const snapshot = await readVcdInventory(client, { parallelVms: 4 });
  return { server, snapshot };
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

function expectNoSessionLeft(server: FakeVcdServer) {
  expect(server.logins).toBeGreaterThan(0);
  expect(server.openSessions.size).toBe(0);
}

describe("readVcdInventory", () => {
  it("reads every VM across capped pages into one ok list, templates left out", async () => {
    const { server, snapshot } = await read({ vmCount: 70, templateCount: 2, pageCap: 25 });
    const vms = vmsOf(onlyList(snapshot.lists));
    expect(vms).toHaveLength(70);
    expect(onlyList(snapshot.lists).key).toBe("vms");
    expect(new Set(vms.map((v) => v.externalId)).size).toBe(70);
    expectNoSessionLeft(server);
  });

  it("maps a VM to the neutral shape", async () => {
    const { snapshot } = await read({ vmCount: 2 });
    const vm = vmsOf(onlyList(snapshot.lists)).find((v) => v.name === "vm-1");
    expect(vm).toMatchObject({
      externalId: "urn:vcloud:vm:00000001-0000-4000-8000-000000000001",
      kind: "VM",
      state: "STOPPED",
      cpuCount: 2,
      memoryBytes: 2048 * 1024 * 1024,
      guestOs: "Ubuntu Linux (64-bit)",
      isTemplate: false,
      location: { orgName: "acme", vdcName: "acme-vdc", vappName: "vapp-0" },
      nics: [{ key: "nic0", mac: fakeVmMac(1), network: "vApp network test", isConnected: true }],
      ips: [{ address: "10.0.0.1", origin: "PLATFORM", nicKey: "nic0", isAccepted: true }],
      ipsFromGuestAreLive: true,
      disks: [{ key: "2000", capacityBytes: 10241 * 1024 * 1024, busType: "scsi" }],
      diskTotalBytes: 10241 * 1024 * 1024,
    });
    expect(vm?.details).toMatchObject({ source: "VCD", location: { vdc: "acme-vdc" } });
    expect(vm?.backing).toBeUndefined();
  });

  it("a provider read links each VM to the vCenter and moref backing it", async () => {
    const { snapshot } = await read({ vmCount: 1 }, PROVIDER);
    const [vm] = vmsOf(onlyList(snapshot.lists));
    expect(vm?.backing).toEqual({
      vcenterId: "00000007-0000-4000-8000-000000000001",
      moref: "vm-1000",
    });
    expect(vm?.location.orgName).toBeUndefined();
  });

  it("a failed page fails the list (nothing removed) and still logs out", async () => {
    const { server, snapshot } = await read({ vmCount: 60, failVmPage: 2 });
    const list = onlyList(snapshot.lists);
    expect(list.status).toBe("failed");
    expect(list.status === "failed" && list.reason).toMatch(/query page broke/);
    expectNoSessionLeft(server);
  });

  it("an empty page before total fails the list", async () => {
    const { snapshot } = await read({ vmCount: 30, pageLayout: [25, 0] });
    expect(onlyList(snapshot.lists).status).toBe("failed");
  });

  it("one VM whose sections fail fails the whole list, naming the VM", async () => {
    const { server, snapshot } = await read({ vmCount: 10, failSectionOfVm: 4 });
    const list = onlyList(snapshot.lists);
    expect(list.status).toBe("failed");
    expect(list.status === "failed" && list.reason).toMatch(/vm-4 .*section broke/);
    expectNoSessionLeft(server);
  });

  it("reads edge gateways of VDCs and VDC groups on every page", async () => {
    const { snapshot } = await read({ edgeGatewayCount: 7, edgePageCap: 3 });
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
    const { snapshot } = await read({
      vmCount: 2,
      edgeGatewayCount: 7,
      edgePageCap: 3,
      failEdgePage: 3,
    });
    expect(snapshot.edgeGateways?.isComplete).toBe(false);
    expect(snapshot.edgeGateways?.reason).toMatch(/edge page broke/);
    expect(onlyList(snapshot.lists).status).toBe("ok");
  });

  it("sends nothing but GET besides the session login and logout", async () => {
    const { server } = await read({ vmCount: 30, edgeGatewayCount: 4 });
    const writes = server.requests
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.url}`);
    expect(writes).toHaveLength(2);
    expect(writes[0]).toBe("POST /cloudapi/1.0.0/sessions");
    expect(writes[1]).toMatch(/^DELETE \/cloudapi\/1\.0\.0\/sessions\/urn:vcloud:session:/);
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
    expect(vm.ips.map((ip) => ip.address)).toEqual(["192.168.2.100"]);
    expect(JSON.stringify(vm.details)).toContain("10.12.7.4");
    expect(vm.disks).toEqual([
      { key: "2000", capacityBytes: 10240 * 1024 * 1024, busType: "scsi" },
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
    expect(vm.ips).toEqual([
      { address: "10.12.6.17", origin: "DHCP", nicKey: "nic0", isAccepted: true },
    ]);
    expect(vm.state).toBe("STOPPED");
  });
});
