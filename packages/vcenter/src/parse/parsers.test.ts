// Every recorded vSphere answer in fixtures/vsphere goes through its parser.

import { judgedByShippedRules } from "@hyperlens/shared";
import { describe, expect, it } from "vitest";
import { toolsReportedAddresses } from "../adapter/map-vm.ts";
import { allFixtures, fixtureJson } from "../testing/fixtures.ts";
import { parseGuestIdentity } from "./guest-identity.ts";
import { parseGuestInterfaces } from "./guest-interfaces.ts";
import { parseClusterList, parseHostList } from "./inventory-lists.ts";
import { parseSessionInfo, parseSessionToken } from "./session.ts";
import { parseVmInfo } from "./vm-info.ts";
import { parseVmList } from "./vm-list.ts";

const CALL = "GET /test";

describe("session", () => {
  it("reads the token of POST /api/session from a bare JSON string", () => {
    expect(parseSessionToken(fixtureJson("session/POST.201.http"), CALL)).toBe(
      "b3c9f2a0e6d14f5e9a1c2d3e4f5a6b7c",
    );
    expect(parseSessionToken({ value: "legacy-token" }, CALL)).toBe("legacy-token");
    expect(() => parseSessionToken({ token: "x" }, CALL)).toThrow(/unexpected shape/);
    expect(() => parseSessionToken("two\nlines", CALL)).toThrow(/unexpected shape/);
  });

  it("reads GET /api/session", () => {
    expect(parseSessionInfo(fixtureJson("session/GET.200.json"), CALL).user).toBe(
      "VSPHERE.LOCAL\\inventory",
    );
  });
});

describe("VM list and details", () => {
  it("reads the plain-array VM list with optional cpu/memory", () => {
    const rows = parseVmList(fixtureJson("vcenter_vm/GET.200.list.json"), CALL);
    expect(rows.map((r) => r.vm)).toEqual(["vm-1049", "vm-1050", "vm-1026"]);
    expect(rows[0]).toEqual({
      vm: "vm-1049",
      name: "test_vm1",
      powerState: "POWERED_OFF",
      cpuCount: 1,
      memoryMiB: 1024,
    });
    const orphan = parseVmList([{ vm: "vm-7", name: "x", power_state: "POWERED_OFF" }], CALL);
    expect(orphan[0]).toMatchObject({ cpuCount: null, memoryMiB: null });
    expect(() => parseVmList({ value: [] }, CALL)).toThrow(/unexpected shape/);
  });

  it("reads VM.Info's nics and disks as objects keyed by device key", () => {
    const info = parseVmInfo(fixtureJson("vcenter_vm/GET.200.vm-1049.json"), CALL);
    expect(info).toMatchObject({
      name: "test_vm1",
      guestOs: "RHEL_7_64",
      powerState: "POWERED_OFF",
      cpuCount: 1,
      memoryMiB: 1024,
      instanceUuid: "5031e081-01a7-d61a-31f8-4bc54057ec60",
    });
    expect(info.nics).toEqual([
      expect.objectContaining({
        key: "4000",
        macAddress: "00:50:56:b1:22:7d",
        network: "network-1041",
        networkName: "VM Network",
        state: "NOT_CONNECTED",
      }),
    ]);
    expect(info.disks.map((d) => [d.key, d.capacityBytes, d.vmdkFile])).toEqual([
      ["16000", 16106127360, "[local] test_vm1/rhel-8.5.vmdk"],
      ["16001", 32000000000, "[local] test_vm1_1/second_disk.vmdk"],
    ]);
    const asArrays = { ...(fixtureJson("vcenter_vm/GET.200.vm-1049.json") as object), nics: [] };
    expect(() => parseVmInfo(asArrays, CALL)).toThrow(/vm\.nics/);
  });
});

describe("guest networking", () => {
  it("reads interfaces with and without a nic key, and an empty address list", () => {
    const ifaces = parseGuestInterfaces(
      fixtureJson("vcenter_vm_guest_networking_interfaces/GET.200.json"),
      CALL,
    );
    expect(ifaces.map((i) => [i.nic, i.macAddress, i.addresses.length])).toEqual([
      ["4000", "00:50:56:b1:33:76", 2],
      [null, "02:42:5c:8a:1e:07", 1],
    ]);
    const none = parseGuestInterfaces(
      fixtureJson("vcenter_vm_guest_networking_interfaces/GET.200.no-ips-recorded.json"),
      CALL,
    );
    expect(none[0]?.addresses).toEqual([]);
  });

  it("keeps only addresses on the VM's own NIC; docker0 and link-local are explained", () => {
    const ifaces = parseGuestInterfaces(
      fixtureJson("vcenter_vm_guest_networking_interfaces/GET.200.json"),
      CALL,
    );
    const { ips } = judgedByShippedRules(toolsReportedAddresses(ifaces), [
      { key: "4000", mac: "00:50:56:B1:33:76" },
    ]);
    expect(ips.filter((ip) => ip.isAccepted).map((ip) => ip.address)).toEqual(["192.168.10.21"]);
    expect(ips.find((ip) => ip.address === "172.17.0.1")?.rejectReason).toMatch(
      /02:42:5c:8a:1e:07: not backed by a virtual NIC/,
    );
    expect(ips.find((ip) => ip.address.startsWith("fe80"))?.rejectReason).toMatch(/link-local/);
  });
});

describe("guest identity (docs/behaviour.md §10.10)", () => {
  it("reads hostname and the readable OS name Tools report", () => {
    expect(parseGuestIdentity(fixtureJson("vcenter_vm_guest_identity/GET.200.json"), CALL)).toEqual(
      {
        hostName: "localhost.localdomain",
        fullName: "Red Hat Fedora (64-bit)",
        osCode: "FEDORA_64",
        family: "LINUX",
      },
    );
  });

  it("reads a guest that reports no hostname yet as no hostname, not a failure", () => {
    expect(parseGuestIdentity({ name: "OTHER_LINUX_64", host_name: "", family: 3 }, CALL)).toEqual({
      hostName: null,
      fullName: null,
      osCode: "OTHER_LINUX_64",
      family: null,
    });
  });
});

describe("hosts and clusters", () => {
  it("reads hosts, power_state only when CONNECTED", () => {
    const hosts = parseHostList(fixtureJson("vcenter_host/GET.200.json"), CALL);
    expect(hosts).toEqual([
      {
        host: "host-1013",
        name: "esxi1.test",
        connectionState: "CONNECTED",
        powerState: "POWERED_ON",
      },
      {
        host: "host-1020",
        name: "esxi2.test",
        connectionState: "NOT_RESPONDING",
        powerState: null,
      },
    ]);
  });

  it("reads clusters", () => {
    expect(parseClusterList(fixtureJson("vcenter_cluster/GET.200.json"), CALL)).toEqual([
      { cluster: "domain-c1006", name: "my_cluster", haEnabled: false, drsEnabled: false },
    ]);
  });
});

describe("every fixture is understood", () => {
  // The error answers are served by the stand-in in client.test.ts ("vSphere errors …").
  const errors = allFixtures().filter((f) => /\.(4|5)\d\d\./.test(f));

  it("no fixture is left without a test", () => {
    const covered = new Set([
      "session/POST.201.http",
      "session/GET.200.json",
      "session/DELETE.204.http",
      "vcenter_vm/GET.200.list.json",
      "vcenter_vm/GET.200.vm-1049.json",
      "vcenter_vm_guest_networking_interfaces/GET.200.json",
      "vcenter_vm_guest_networking_interfaces/GET.200.no-ips-recorded.json",
      "vcenter_host/GET.200.json",
      "vcenter_cluster/GET.200.json",
      // Read only for its name; Hyperlens never asks a single cluster.
      "vcenter_cluster/GET.200.domain-c1006.json",
      "vcenter_vm_guest_identity/GET.200.json",
      ...errors,
    ]);
    expect(allFixtures().filter((f) => !covered.has(f))).toEqual([]);
  });
});

describe("values a newer vCenter sends", () => {
  it("enum values past the 7.0.3 schema are read as given, never failing the VM", () => {
    const recorded = fixtureJson("vcenter_vm/GET.200.vm-1049.json") as Record<string, unknown>;
    const nic = { ...(recorded.nics as Record<string, Record<string, unknown>>)["4000"] };
    const disk = { ...(recorded.disks as Record<string, Record<string, unknown>>)["16000"] };
    const newer = {
      ...recorded,
      // vCenter 8.0 values (VMX_21, ALMALINUX_64), then ones no release has yet.
      guest_OS: "ALMALINUX_64",
      hardware: { version: "VMX_21", upgrade_policy: "NEVER", upgrade_status: "NONE" },
      nics: {
        "4000": { ...nic, upt_v2_compatibility_enabled: false },
        "4001": {
          ...nic,
          type: "VMXNET4",
          state: "SOMETHING_NEW",
          backing: { type: "NEW_BACKING" },
        },
      },
      disks: {
        "16000": { ...disk, type: "NVME", nvme: { bus: 0, unit: 0 } },
        "16001": { ...disk, type: "CXL", backing: { type: "NEW_DISK" } },
      },
    };
    const info = parseVmInfo(newer, CALL);
    expect(info).toMatchObject({ guestOs: "ALMALINUX_64", hardwareVersion: "VMX_21" });
    expect(info.nics.map((n) => [n.key, n.type, n.state, n.backingType])).toEqual([
      ["4000", "VMXNET3", "NOT_CONNECTED", "STANDARD_PORTGROUP"],
      ["4001", "VMXNET4", "SOMETHING_NEW", "NEW_BACKING"],
    ]);
    expect(info.disks.map((d) => [d.key, d.type, d.backingType])).toEqual([
      ["16000", "NVME", "VMDK_FILE"],
      ["16001", "CXL", "NEW_DISK"],
    ]);
    const list = parseVmList([{ vm: "vm-1", name: "a", power_state: "SOME_NEW_STATE" }], CALL);
    expect(list[0]?.powerState).toBe("SOME_NEW_STATE");
  });
});
