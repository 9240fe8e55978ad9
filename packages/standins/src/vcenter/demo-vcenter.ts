import { extraInterface, nicInterface, vcenterDisk, vcenterNic, vcenterVm } from "./builders.ts";
import { VcenterModel } from "./model.ts";

/** Managed-object references of the demo inventory, for tests that mutate or look up a known entity. */
export const DEMO_VCENTER_IDS = {
  datacenter: "datacenter-3",
  cluster: "domain-c1006",
  esxi1: "host-1013",
  esxi2: "host-1014",
  esxiStandalone: "host-1015",
  esxiOffline: "host-1020",
  folderProd: "group-v1001",
  folderDev: "group-v1002",
  vmWeb01: "vm-1050",
  vmDb01: "vm-1051",
  vmWin01: "vm-1052",
  vmTest: "vm-1049",
  vmBuild01: "vm-1053",
  vmVcls: "vm-1026",
} as const;

/**
 * A small, realistic vCenter for the demo mode and hand-written tests: one datacenter with a
 * two-host cluster, a standalone host and a host that is not responding; a web VM whose guest
 * also reports docker0 and its MAC in upper case, a database VM with two NICs and two disks, a
 * Windows VM with a vEthernet adapter, a powered-off VM (the recorded `test_vm1`), a running VM
 * whose Tools are stopped, and a vCLS agent VM.
 */
export function demoVcenter(): VcenterModel {
  const d = DEMO_VCENTER_IDS;
  const web = vcenterNic(0, "00:50:56:b1:33:76");
  const db = [
    vcenterNic(0, "00:50:56:b1:44:01"),
    vcenterNic(1, "00:50:56:b1:44:02", { id: "dvportgroup-22", name: "Backup" }),
  ];
  const win = vcenterNic(0, "00:50:56:b1:55:01");
  const build = vcenterNic(0, "00:50:56:b1:66:01");
  return new VcenterModel({
    datacenters: [{ id: d.datacenter, name: "Lab" }],
    clusters: [
      {
        id: d.cluster,
        name: "my_cluster",
        datacenterId: d.datacenter,
        haEnabled: true,
        drsEnabled: true,
      },
    ],
    hosts: [
      {
        id: d.esxi1,
        name: "esxi1.test",
        datacenterId: d.datacenter,
        clusterId: d.cluster,
        connectionState: "CONNECTED",
      },
      {
        id: d.esxi2,
        name: "esxi2.test",
        datacenterId: d.datacenter,
        clusterId: d.cluster,
        connectionState: "CONNECTED",
      },
      {
        id: d.esxiStandalone,
        name: "esxi3.test",
        datacenterId: d.datacenter,
        clusterId: null,
        connectionState: "CONNECTED",
      },
      {
        id: d.esxiOffline,
        name: "esxi4.test",
        datacenterId: d.datacenter,
        clusterId: null,
        connectionState: "NOT_RESPONDING",
      },
    ],
    folders: [
      { id: d.folderProd, name: "prod", datacenterId: d.datacenter },
      { id: d.folderDev, name: "dev", datacenterId: d.datacenter },
    ],
    vms: [
      vcenterVm(
        {
          id: d.vmWeb01,
          name: "web-01",
          hostId: d.esxi1,
          folderId: d.folderProd,
          nics: [web],
          disks: [vcenterDisk("web-01", 0, 40)],
          guestInterfaces: [
            nicInterface(web, "192.168.10.21", { upperCaseMac: true, dhcp: true }),
            extraInterface("docker0"),
          ],
        },
        1,
      ),
      vcenterVm(
        {
          id: d.vmDb01,
          name: "db-01",
          hostId: d.esxi2,
          folderId: d.folderProd,
          cpuCount: 8,
          memoryMiB: 32768,
          guestOs: "RHEL_9_64",
          guestFullName: "Red Hat Enterprise Linux 9 (64-bit)",
          guestHostName: "db-01.lab.example",
          nics: db,
          disks: [vcenterDisk("db-01", 0, 40), vcenterDisk("db-01", 1, 500, "ssd-01")],
          guestInterfaces: [
            nicInterface(db[0] ?? web, "192.168.10.31"),
            nicInterface(db[1] ?? web, "10.99.0.31"),
            extraInterface("lo"),
          ],
        },
        2,
      ),
      vcenterVm(
        {
          id: d.vmWin01,
          name: "win-01",
          hostId: d.esxiStandalone,
          folderId: d.folderProd,
          guestOs: "WINDOWS_SERVER_2021",
          nics: [win],
          disks: [vcenterDisk("win-01", 0, 80)],
          guestInterfaces: [nicInterface(win, "192.168.10.41"), extraInterface("vEthernet")],
        },
        3,
      ),
      vcenterVm(
        {
          id: d.vmTest,
          name: "test_vm1",
          hostId: d.esxi1,
          folderId: d.folderDev,
          powerState: "POWERED_OFF",
          isToolsRunning: false,
          cpuCount: 1,
          memoryMiB: 1024,
          guestOs: "RHEL_7_64",
          hardwareVersion: "VMX_11",
          nics: [vcenterNic(0, "00:50:56:b1:22:7d", { id: "network-1041", name: "VM Network" })],
          disks: [vcenterDisk("test_vm1", 0, 15), vcenterDisk("test_vm1", 1, 30)],
        },
        4,
      ),
      vcenterVm(
        {
          id: d.vmBuild01,
          name: "build-01",
          hostId: d.esxi2,
          folderId: d.folderDev,
          isToolsRunning: false,
          nics: [build],
          disks: [vcenterDisk("build-01", 0, 100)],
          guestInterfaces: [nicInterface(build, "192.168.10.51")],
        },
        5,
      ),
      vcenterVm(
        {
          id: d.vmVcls,
          name: "vCLS-4e3b0f1a-d0a1-4c22-9d1d-7b2d3e4f5a6b",
          hostId: d.esxi1,
          folderId: d.folderDev,
          cpuCount: 1,
          memoryMiB: 128,
          guestOs: "OTHER_3X_LINUX_64",
          disks: [vcenterDisk("vCLS", 0, 2)],
        },
        6,
      ),
    ],
  });
}
