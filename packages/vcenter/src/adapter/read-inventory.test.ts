// The adapter against the vCenter stand-in: one "vms" list that is ok only after a complete read
// (cap split by host and folder), locations from the list filters, IPs from the VM's own NICs.
import {
  type AddressOutcome,
  fieldSourceGaps,
  type NeutralVm,
  type SourceSnapshot,
  withShippedJudgement,
} from "@hyperlens/shared";
import {
  generateVcenter,
  DEMO_VCENTER_IDS as ids,
  VCENTER_RELEASES,
  vcenterVm,
} from "@hyperlens/standins/testing";
import { describe, expect, it } from "vitest";
import { setup } from "../testing/setup.ts";
import { VCENTER_FIELD_SOURCES } from "./field-sources.ts";
import { guestOsName } from "./guest-os-names.ts";
import { readVcenterInventory } from "./read-inventory.ts";

function okVms(snapshot: SourceSnapshot): NeutralVm[] {
  const list = snapshot.lists[0];
  if (list?.status !== "ok") throw new Error(`list not ok: ${JSON.stringify(list)}`);
  return list.vms;
}

/** The VM named `name`, its report judged as the sync judges it under the shipped rules. */
function vmNamed(vms: NeutralVm[], name: string): NeutralVm & AddressOutcome {
  const vm = vms.find((v) => v.name === name);
  if (!vm) throw new Error(`no VM ${name}`);
  return withShippedJudgement(vm);
}

const accepted = (vm: AddressOutcome) =>
  vm.ips.filter((ip) => ip.isAccepted).map((ip) => ip.address);

describe("reading the demo vCenter", () => {
  it("maps hosts to nodes and VMs to the neutral shape with datacenter/cluster/host", async () => {
    const { standin, client } = await setup();
    const snapshot = await readVcenterInventory(client);
    expect(snapshot.lists.map((l) => [l.key, l.status])).toEqual([["vms", "ok"]]);
    expect(snapshot.nodes?.map((n) => [n.externalId, n.clusterName ?? null, n.isOnline])).toEqual([
      [ids.esxi1, "my_cluster", true],
      [ids.esxi2, "my_cluster", true],
      [ids.esxiStandalone, null, true],
      [ids.esxiOffline, null, false],
    ]);
    const vms = okVms(snapshot);
    expect(vms).toHaveLength(6);
    const db = vmNamed(vms, "db-01");
    expect(db).toMatchObject({
      externalId: ids.vmDb01,
      kind: "VM",
      state: "RUNNING",
      cpuCount: 8,
      memoryBytes: 32768 * 1024 * 1024,
      guestOs: "Red Hat Enterprise Linux 9 (64-bit)",
      guestOsCode: "RHEL_9_64",
      location: { datacenterName: "Lab", clusterName: "my_cluster", hostName: "esxi2.test" },
      ipsFromGuestAreLive: true,
      diskTotalBytes: 540 * 1024 ** 3,
    });
    // docs/behaviour.md §6.3: NICs and disks carry the vSphere Client's labels beside the device keys.
    expect(db.nics.map((n) => [n.key, n.label, n.mac, n.network])).toEqual([
      ["4000", "Network adapter 1", "00:50:56:b1:44:01", "VM Network"],
      ["4001", "Network adapter 2", "00:50:56:b1:44:02", "Backup"],
    ]);
    expect(db.disks.map((d) => [d.key, d.label, d.storage, d.busType])).toEqual([
      ["2000", "Hard disk 1", "datastore1", "scsi"],
      ["2001", "Hard disk 2", "ssd-01", "scsi"],
    ]);
    const served = standin.model.vm(ids.vmDb01);
    expect(db.biosUuid).toBe(served?.biosUuid);
    expect(db.instanceUuid).toBe(served?.instanceUuid);
    expect(accepted(db)).toEqual(["192.168.10.31", "10.99.0.31"]);
    expect(db.details).toMatchObject({
      source: "VCENTER",
      location: { datacenter: "Lab", cluster: "my_cluster", host: "esxi2.test" },
      vcenter: { moref: ids.vmDb01, server: "127.0.0.1", host: ids.esxi2 },
    });
    const win = vmNamed(vms, "win-01");
    expect(win.location).toEqual({ datacenterName: "Lab", hostName: "esxi3.test" });
    expect(standin.openSessions).toBe(0);
  });

  it("keeps only IPs on the VM's own NICs, whatever the MAC case; the rest is explained", async () => {
    const { client } = await setup();
    const web = vmNamed(okVms(await readVcenterInventory(client)), "web-01");
    // The guest reports its NIC's MAC in upper case; vCenter's NIC has it in lower case.
    expect(accepted(web)).toEqual(["192.168.10.21"]);
    expect(web.ips.find((ip) => ip.address === "192.168.10.21")).toMatchObject({
      origin: "AGENT",
      nicKey: "4000",
    });
    const docker = web.ips.find((ip) => ip.address === "172.17.0.1");
    expect(docker).toMatchObject({ isAccepted: false });
    expect(docker?.rejectReason).toMatch(/02:42:ac:11:00:01: not backed by a virtual NIC/);
    const win = vmNamed(okVms(await readVcenterInventory(client)), "win-01");
    expect(accepted(win)).toEqual(["192.168.10.41"]);
    expect(win.ips.some((ip) => ip.address.startsWith("172.24.") && !ip.isAccepted)).toBe(true);
  });

  it("Tools not running costs only the IPs: no error, ipsFromGuestAreLive false", async () => {
    const { standin, client } = await setup();
    const vms = okVms(await readVcenterInventory(client));
    const build = vmNamed(vms, "build-01");
    expect(build).toMatchObject({ state: "RUNNING", ips: [], ipsFromGuestAreLive: false });
    expect(build.guestReport).toEqual({ code: "TOOLS_NOT_RUNNING" });
    const off = vmNamed(vms, "test_vm1");
    expect(off).toMatchObject({ state: "STOPPED", ipsFromGuestAreLive: false });
    // A powered-off VM is not asked at all.
    expect(standin.requests.some((r) => r.path.includes(`${ids.vmTest}/guest`))).toBe(false);
  });

  it("reads hostname and OS name from guest/identity, only of VMs whose Tools just answered", async () => {
    const { standin, client } = await setup();
    const vms = okVms(await readVcenterInventory(client));
    const db = vmNamed(vms, "db-01");
    expect(db.guestReport).toEqual({ code: "REPORTED" });
    expect(db.guestValues).toEqual({
      HOSTNAME: "db-01.lab.example",
      OS_NAME: "Red Hat Enterprise Linux 9 (64-bit)",
    });
    expect(vmNamed(vms, "test_vm1")).toMatchObject({
      guestReport: { code: "VM_NOT_RUNNING" },
      guestValues: {},
    });
    const build = vmNamed(vms, "build-01");
    expect(build.guestValues).toEqual({});
    const asked = (vm: string) =>
      standin.requests.filter((r) => r.path === `/api/vcenter/vm/${vm}/guest/identity`).length;
    expect(asked(ids.vmDb01)).toBe(1);
    // Tools not running: the networking call's 503 is enough, identity is not asked too.
    expect(asked(build.externalId)).toBe(0);
  });

  it("sends only GET, plus the session POST and DELETE, over a whole read", async () => {
    const { standin, client } = await setup({ model: generateVcenter({ vms: 40 }), vmListCap: 10 });
    await readVcenterInventory(client);
    const writes = standin.requests.filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/session",
      "DELETE /api/session",
    ]);
    expect(standin.writeAttempts).toEqual([]);
  });
});

describe("docs/inventory.md", () => {
  it("explains exactly the fields the adapter fills", async () => {
    const { client } = await setup();
    const vms = okVms(await readVcenterInventory(client));
    expect(fieldSourceGaps(VCENTER_FIELD_SOURCES, vms)).toEqual({
      undeclared: [],
      neverFilled: [],
    });
  });
});

describe("past the VM list cap", () => {
  const threeHosts = () =>
    generateVcenter({ datacenters: 1, clustersPerDc: 1, hostsPerCluster: 3, vms: 120, seed: 9 });

  // 500 as the 7.0.3 OpenAPI file says, 400 as VMware's vAPI runtimes send it.
  it.each([500, 400] as const)(
    "with cap 50 and 120 VMs over 3 hosts, every VM is read through the host split when the cap answers %i",
    async (status) => {
      const { standin, client } = await setup({
        model: threeHosts(),
        vmListCap: 50,
        vmListCapStatus: status,
      });
      const vms = okVms(await readVcenterInventory(client));
      expect(vms).toHaveLength(120);
      expect(new Set(vms.map((v) => v.externalId)).size).toBe(120);
      expect(vms.every((v) => v.location.hostName !== undefined)).toBe(true);
      const lists = standin.requests.filter((r) => r.path === "/api/vcenter/vm");
      // The refusal is an answer: asked once, never retried.
      expect(lists.map((r) => r.status)).toEqual([status, 200, 200, 200]);
      expect(standin.openSessions).toBe(0);
    },
  );

  it("a 503 on the whole VM list is retried like any read, not taken for the cap", async () => {
    const { standin, client } = await setup();
    standin.faults.fail("/api/vcenter/vm", 503, { nth: 1, times: 1 });
    expect(okVms(await readVcenterInventory(client))).toHaveLength(6);
    const whole = standin.requests.filter((r) => r.path === "/api/vcenter/vm" && r.query === "");
    expect(whole.map((r) => r.status)).toEqual([503, 200]);
  });

  it("a 500 that is not the cap's refusal is retried too", async () => {
    const { standin, client } = await setup();
    standin.faults.fail("/api/vcenter/vm", 500, { nth: 1, times: 1 });
    expect(okVms(await readVcenterInventory(client))).toHaveLength(6);
    const whole = standin.requests.filter((r) => r.path === "/api/vcenter/vm" && r.query === "");
    expect(whole.map((r) => r.status)).toEqual([500, 200]);
  });

  it("a transient 503 on a folder part is retried: the split read stays complete", async () => {
    const model = generateVcenter({ clustersPerDc: 1, hostsPerCluster: 1, vms: 120, seed: 4 });
    const { standin, client } = await setup({ model, vmListCap: 50 });
    // Calls 1 and 2 are the whole list and the one host's part, both refused: 3 is a folder's.
    standin.faults.fail("/api/vcenter/vm", 503, { nth: 3, times: 1 });
    expect(okVms(await readVcenterInventory(client))).toHaveLength(120);
  });

  it("a whole list AT the cap is not trusted: it is split too", async () => {
    const model = threeHosts();
    const { standin, client } = await setup({ model }, { vmListCap: 50 });
    // A server that silently cuts the list at the cap, as a full answer would look.
    const first50 = model.vms.slice(0, 50).map((vm) => ({
      vm: vm.id,
      name: vm.name,
      power_state: vm.powerState,
    }));
    standin.faults.fail("/api/vcenter/vm", 200, {
      nth: 1,
      body: JSON.stringify(first50),
      headers: { "Content-Type": "application/json" },
    });
    expect(okVms(await readVcenterInventory(client))).toHaveLength(120);
  });

  it("a host over the cap is split by folder", async () => {
    const model = generateVcenter({ clustersPerDc: 1, hostsPerCluster: 1, vms: 120, seed: 4 });
    const { standin, client } = await setup({ model, vmListCap: 50 });
    expect(okVms(await readVcenterInventory(client))).toHaveLength(120);
    expect(standin.requests.some((r) => r.path === "/api/vcenter/folder")).toBe(true);
  });

  it("a folder still over the cap fails the list rather than shortening it", async () => {
    const model = generateVcenter({ clustersPerDc: 1, hostsPerCluster: 1, vms: 200, seed: 4 });
    const { client } = await setup({ model, vmListCap: 50 });
    const snapshot = await readVcenterInventory(client);
    expect(snapshot.lists[0]).toMatchObject({ key: "vms", status: "failed" });
  });

  it("one failed part fails the list (nothing removed), keeps the nodes, and logs out", async () => {
    const { standin, client } = await setup({ model: threeHosts(), vmListCap: 50 });
    standin.faults.fail("/api/vcenter/vm", 503, { nth: 3, times: 5 });
    const snapshot = await readVcenterInventory(client);
    expect(snapshot.lists[0]).toMatchObject({ key: "vms", status: "failed" });
    expect(snapshot.lists[0]).toHaveProperty("reason", expect.stringMatching(/hosts=host-/));
    expect(snapshot.nodes).toHaveLength(3);
    expect(standin.openSessions).toBe(0);
  });
});

describe("failures part-way", () => {
  it("a VM whose details fail fails the whole list, naming the VM", async () => {
    const { standin, client } = await setup();
    standin.faults.fail(`/api/vcenter/vm/${ids.vmDb01}`, 500, { times: 10 });
    const snapshot = await readVcenterInventory(client);
    expect(snapshot.lists[0]).toMatchObject({ status: "failed" });
    expect(snapshot.lists[0]).toHaveProperty(
      "reason",
      expect.stringContaining(`db-01 (${ids.vmDb01})`),
    );
    expect(standin.openSessions).toBe(0);
  });

  it("a failed host list fails the list without nodes, and logs out", async () => {
    const { standin, client } = await setup();
    standin.faults.fail("/api/vcenter/host", 403, { times: 20 });
    const snapshot = await readVcenterInventory(client);
    expect(snapshot.nodes).toBeUndefined();
    expect(snapshot.lists[0]).toMatchObject({ status: "failed" });
    expect(standin.openSessions).toBe(0);
  });

  it("an aborted read throws and still logs out", async () => {
    const { standin, client } = await setup();
    const controller = new AbortController();
    const read = readVcenterInventory(client, {
      signal: controller.signal,
      onProgress: (event) => {
        if (event.type === "listing") controller.abort();
      },
    });
    await expect(read).rejects.toThrow();
    expect(standin.openSessions).toBe(0);
  });

  it("a moved VM changes host; a removed VM is absent from a complete list", async () => {
    const { standin, client } = await setup();
    standin.model.moveVm(ids.vmWeb01, ids.esxiStandalone);
    standin.model.removeVm(ids.vmVcls);
    const vms = okVms(await readVcenterInventory(client));
    expect(vmNamed(vms, "web-01").location).toEqual({
      datacenterName: "Lab",
      hostName: "esxi3.test",
    });
    expect(vms.map((v) => v.externalId)).not.toContain(ids.vmVcls);
  });
});

describe.each(VCENTER_RELEASES)("vCenter %s", (release) => {
  it("reads every VM as served: the release's guest OS and hardware versions, NVMe disks, and values no release knows yet", async () => {
    const model = generateVcenter({ vms: 40, seed: 6, release });
    const [host, folder] = [model.hosts[0], model.folders[0]];
    if (!host || !folder) throw new Error("no host or folder");
    model.addVm(
      vcenterVm({
        id: "vm-future",
        name: "future",
        hostId: host.id,
        folderId: folder.id,
        guestOs: "FUTURE_OS_64",
        hardwareVersion: "VMX_99",
      }),
    );
    const { standin, client } = await setup({ model, release });
    const vms = okVms(await readVcenterInventory(client));
    expect(vms.map((vm) => vm.externalId).sort()).toEqual(model.vms.map((vm) => vm.id).sort());
    for (const vm of vms) {
      const served = model.vm(vm.externalId);
      // Known ids get the vSphere Client's name; an id no table knows stays as served.
      expect(vm.guestOsCode).toBe(served?.guestOs);
      expect(vm.guestOs).toBe(
        served?.guestOs === undefined ? undefined : guestOsName(served.guestOs),
      );
      expect(vm.details).toMatchObject({ vcenter: { hardwareVersion: served?.hardwareVersion } });
      expect(vm.disks.map((d) => d.busType)).toEqual(served?.disks.map((d) => d.bus.toLowerCase()));
    }
    expect(vms.some((vm) => vm.disks.some((d) => d.busType === "nvme"))).toBe(true);
    const hardware = new Set(
      vms.map((vm) => (vm.details.vcenter as { hardwareVersion: string }).hardwareVersion),
    );
    expect(hardware.has("VMX_21")).toBe(release === "8.0.3");
    expect(vmNamed(vms, "future").guestOs).toBe("FUTURE_OS_64");
    expect(standin.openSessions).toBe(0);
  });
});
