// A small Director inventory for the client and adapter tests: the default tenant's org `acme`, one
// VDC and a VDC group, numbered VMs (vm-0, vm-1, …) four to a vApp, templates after them, and edge
// gateways alternately owned by the VDC and the group. Numbered ids and addresses keep expectations
// readable.
import {
  DEFAULT_VCD_PASSWORD,
  DirectorModel,
  vcdEdgeGateway,
  vcdVm,
  vmwareMac,
} from "@hyperlens/standins/testing";

/** How much of each kind the inventory holds; all default to 0. */
export interface AcmeDirectorSize {
  vms?: number;
  /** vApp template VMs (they count toward the query's total). */
  templates?: number;
  edgeGateways?: number;
}

function uuid(kind: number, n: number): string {
  return `${kind.toString(16).padStart(8, "0")}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

const ORG_ID = uuid(6, 1);
const VDC_ID = uuid(4, 1);
const GROUP_ID = uuid(8, 1);

/** The id of VM `n` (templates continue the numbering). */
export function acmeVmId(n: number): string {
  return uuid(1, n);
}

/** The MAC of VM `n`'s only NIC. */
export function acmeVmMac(n: number): string {
  return vmwareMac(0x010000 + n);
}

/** The address of VM `n`'s only NIC. */
export function acmeVmIp(n: number): string {
  return `10.0.${(n >> 8) & 0xff}.${n & 0xff}`;
}

/** Build the inventory. */
export function acmeDirector(size: AcmeDirectorSize = {}): DirectorModel {
  const vmCount = size.vms ?? 0;
  const all = vmCount + (size.templates ?? 0);
  const vapps = new Map<number, { id: string; name: string; vdcId: string; template: boolean }>();
  const vms = [];
  for (let n = 0; n < all; n++) {
    const template = n >= vmCount;
    const vappNumber = template ? 1_000_000 + ((n - vmCount) >> 2) : n >> 2;
    if (!vapps.has(vappNumber)) {
      vapps.set(vappNumber, {
        id: uuid(template ? 0xa : 3, vappNumber),
        name: template ? `template-vapp-${(n - vmCount) >> 2}` : `vapp-${n >> 2}`,
        vdcId: VDC_ID,
        template,
      });
    }
    vms.push(
      vcdVm({
        id: acmeVmId(n),
        name: `vm-${n}`,
        vappId: vapps.get(vappNumber)?.id ?? "",
        status: n % 2 ? "POWERED_OFF" : "POWERED_ON",
        cpus: 1 + (n % 4),
        memoryMb: 1024 * (1 + (n % 4)),
        nics: [{ network: "vApp network test", mac: acmeVmMac(n), ip: acmeVmIp(n) }],
        disks: [{ sizeMb: 10240 + n }],
        moref: `vm-${1000 + n}`,
      }),
    );
  }
  const edgeGateways = [];
  for (let n = 0; n < (size.edgeGateways ?? 0); n++) {
    edgeGateways.push(
      vcdEdgeGateway({
        id: uuid(5, n),
        name: `edge-${n}`,
        owner: n % 2 ? { kind: "vdcGroup", id: GROUP_ID } : { kind: "vdc", id: VDC_ID },
      }),
    );
  }
  return new DirectorModel({
    orgs: [{ id: ORG_ID, name: "acme", fullName: "Acme" }],
    vdcs: [{ id: VDC_ID, name: "acme-vdc", orgId: ORG_ID }],
    vdcGroups: [{ id: GROUP_ID, name: "acme-group", orgId: ORG_ID, vdcIds: [VDC_ID] }],
    vapps: [...vapps.values()],
    vms,
    edgeGateways,
  });
}

/** The stand-in's default tenant (`inventory@acme`), as the client's credentials. */
export const TENANT = { username: "inventory@acme", password: DEFAULT_VCD_PASSWORD };
/** The stand-in's default provider administrator, as the client's credentials. */
export const PROVIDER = { username: "administrator@System", password: DEFAULT_VCD_PASSWORD };
