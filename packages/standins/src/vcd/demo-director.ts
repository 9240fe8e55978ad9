import { vcdEdgeGateway, vcdVm } from "./builders.ts";
import { DirectorModel } from "./model.ts";

/** Fixed, readable UUIDs so demo screenshots and hand-written tests stay stable. */
function uuid(kind: number, n: number): string {
  return `${kind.toString(16).padStart(8, "0")}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

/** UUIDs of the demo inventory, for tests that mutate or look up a known entity. */
export const DEMO_IDS = {
  orgAcme: uuid(0x0a, 1),
  orgGlobex: uuid(0x0a, 2),
  vdcAcmeProd: uuid(0x0d, 1),
  vdcAcmeDev: uuid(0x0d, 2),
  vdcGlobex: uuid(0x0d, 3),
  vdcGroupAcme: uuid(0x06, 1),
  vappWeb: uuid(0x0b, 1),
  vappDb: uuid(0x0b, 2),
  vappDev: uuid(0x0b, 3),
  vappTemplateUbuntu: uuid(0x0b, 4),
  vappGlobex: uuid(0x0b, 5),
  vmWeb01: uuid(0x01, 1),
  vmWeb02: uuid(0x01, 2),
  vmDb01: uuid(0x01, 3),
  vmDev01: uuid(0x01, 4),
  vmTemplateUbuntu: uuid(0x01, 5),
  vmGlobexApp01: uuid(0x01, 6),
  edgeAcme: uuid(0x0e, 1),
  edgeAcmeShared: uuid(0x0e, 2),
  edgeGlobex: uuid(0x0e, 3),
} as const;

/**
 * A small, realistic Director for the demo mode and hand-written tests: two tenant orgs
 * (`acme` with two VDCs and a VDC group, `globex` with one), NAT-routed and DHCP NICs, a
 * VM with two disks on two controllers, a suspended VM, a catalog template whose NIC is on
 * network "none", and edge gateways owned by a VDC and by a VDC group.
 */
export function demoDirector(): DirectorModel {
  const d = DEMO_IDS;
  return new DirectorModel({
    orgs: [
      { id: d.orgAcme, name: "acme", fullName: "ACME Corporation" },
      { id: d.orgGlobex, name: "globex", fullName: "Globex Inc." },
    ],
    vdcs: [
      { id: d.vdcAcmeProd, name: "acme-prod", orgId: d.orgAcme },
      { id: d.vdcAcmeDev, name: "acme-dev", orgId: d.orgAcme },
      { id: d.vdcGlobex, name: "globex-vdc", orgId: d.orgGlobex },
    ],
    vdcGroups: [
      {
        id: d.vdcGroupAcme,
        name: "acme-group",
        orgId: d.orgAcme,
        vdcIds: [d.vdcAcmeProd, d.vdcAcmeDev],
      },
    ],
    vapps: [
      { id: d.vappWeb, name: "web", vdcId: d.vdcAcmeProd, template: false },
      { id: d.vappDb, name: "database", vdcId: d.vdcAcmeProd, template: false },
      { id: d.vappDev, name: "dev", vdcId: d.vdcAcmeDev, template: false },
      {
        id: d.vappTemplateUbuntu,
        name: "ubuntu-22.04",
        vdcId: d.vdcAcmeDev,
        template: true,
        catalogName: "Base images",
      },
      { id: d.vappGlobex, name: "erp", vdcId: d.vdcGlobex, template: false },
    ],
    vms: [
      vcdVm({
        id: d.vmWeb01,
        name: "web-01",
        vappId: d.vappWeb,
        cpus: 2,
        memoryMb: 4096,
        nics: [
          {
            network: "web-net",
            mac: "00:50:56:01:00:01",
            ip: "10.0.10.11",
            externalIp: "203.0.113.21",
          },
        ],
        moref: "vm-1001",
        hostName: "esx01.example.com",
      }),
      vcdVm({
        id: d.vmWeb02,
        name: "web-02",
        vappId: d.vappWeb,
        status: "POWERED_OFF",
        nics: [{ network: "web-net", mac: "00:50:56:01:00:02", mode: "DHCP" }],
        moref: "vm-1002",
        hostName: "esx02.example.com",
      }),
      vcdVm({
        id: d.vmDb01,
        name: "db-01",
        vappId: d.vappDb,
        cpus: 8,
        memoryMb: 32768,
        guestOs: "Red Hat Enterprise Linux 9 (64-bit)",
        nics: [
          { network: "db-net", mac: "00:50:56:01:00:03", ip: "10.0.20.5", mode: "MANUAL" },
          { network: "backup-net", mac: "00:50:56:01:00:04", ip: "10.0.99.5", connected: false },
        ],
        disks: [{ sizeMb: 40960 }, { sizeMb: 512000, controller: "VirtualSCSI" }],
        storageProfileName: "Platinum",
        moref: "vm-1003",
        hostName: "esx01.example.com",
        datastoreName: "ds-nvme-01",
      }),
      vcdVm({
        id: d.vmDev01,
        name: "dev-01",
        vappId: d.vappDev,
        status: "SUSPENDED",
        guestOs: "Microsoft Windows Server 2022 (64-bit)",
        nics: [
          { network: "dev-net", mac: "00:50:56:01:00:05", ip: "10.1.0.50", adapterType: "E1000E" },
        ],
        diskGb: [80],
        storageProfileName: "Silver",
        moref: "vm-1004",
        hostName: "esx03.example.com",
      }),
      vcdVm({
        id: d.vmTemplateUbuntu,
        name: "ubuntu-22.04",
        vappId: d.vappTemplateUbuntu,
        status: "POWERED_OFF",
        nics: [{ network: "none", mac: "00:50:56:01:00:06", mode: "NONE", connected: false }],
        diskGb: [20],
        moref: "vm-1005",
      }),
      vcdVm({
        id: d.vmGlobexApp01,
        name: "erp-app-01",
        vappId: d.vappGlobex,
        cpus: 4,
        memoryMb: 16384,
        nics: [{ network: "erp-net", mac: "00:50:56:01:00:07", ip: "172.16.5.10" }],
        diskGb: [60, 200],
        moref: "vm-2001",
        hostName: "esx04.example.com",
      }),
    ],
    edgeGateways: [
      vcdEdgeGateway({
        id: d.edgeAcme,
        name: "acme-edge-01",
        owner: { kind: "vdc", id: d.vdcAcmeProd },
        primaryIp: "203.0.113.10",
        orgVdcNetworkCount: 2,
      }),
      vcdEdgeGateway({
        id: d.edgeAcmeShared,
        name: "acme-edge-shared",
        owner: { kind: "vdcGroup", id: d.vdcGroupAcme },
        primaryIp: "203.0.113.11",
      }),
      vcdEdgeGateway({
        id: d.edgeGlobex,
        name: "globex-edge-01",
        owner: { kind: "vdc", id: d.vdcGlobex },
        primaryIp: "198.51.100.10",
      }),
    ],
  });
}
