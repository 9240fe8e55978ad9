import { SeededRandom } from "../random.ts";
import { seededUuid, vcdEdgeGateway, vcdVm, vmwareMac } from "./builders.ts";
import {
  DirectorModel,
  type VcdEdgeGateway,
  type VcdOrg,
  type VcdVapp,
  type VcdVdc,
  type VcdVdcGroup,
  type VcdVm,
  type VcdVmStatus,
} from "./model.ts";

/** Options of {@link generateDirector}. */
export interface GenerateDirectorOptions {
  /** Tenant orgs, named org1…orgN. Default 3. */
  orgs?: number;
  /** VDCs per org; orgs with two or more also get a VDC group. Default 2. */
  vdcsPerOrg?: number;
  /** VMs in total, spread round-robin over the VDCs, 4 per vApp. Default 100. */
  vms?: number;
  /** Edge gateways in total, every third one owned by a VDC group when there is one. Default 6. */
  edgeGateways?: number;
  /** Share of template VMs (in catalog vApp templates). Default 0.02. */
  templateShare?: number;
  /** PRNG seed; the same seed gives the same inventory. Default 1. */
  seed?: number;
}

const ROLES = ["web", "api", "db", "cache", "k8s", "ci", "mail", "vpn", "mon", "files"];
const GUEST_OS = [
  "Ubuntu Linux (64-bit)",
  "Ubuntu Linux (64-bit)",
  "Red Hat Enterprise Linux 9 (64-bit)",
  "Debian GNU/Linux 12 (64-bit)",
  "Microsoft Windows Server 2022 (64-bit)",
];
const ADAPTERS = ["VMXNET3", "VMXNET3", "VMXNET3", "E1000E"];
const DISK_GB = [20, 40, 40, 80, 100, 250];
const MEMORY_MB = [1024, 2048, 4096, 4096, 8192, 16384];

/**
 * A deterministic Director of any size for scale tests and benchmarks: 5,000 VMs build in
 * well under a second, and the same seed gives the same UUIDs, MACs and addresses.
 */
export function generateDirector(options: GenerateDirectorOptions = {}): DirectorModel {
  const random = new SeededRandom(options.seed ?? 1);
  const orgCount = options.orgs ?? 3;
  const vdcsPerOrg = options.vdcsPerOrg ?? 2;
  const vmCount = options.vms ?? 100;
  const edgeCount = options.edgeGateways ?? 6;
  const templateShare = options.templateShare ?? 0.02;

  const orgs: VcdOrg[] = [];
  const vdcs: VcdVdc[] = [];
  const groups: VcdVdcGroup[] = [];
  for (let o = 1; o <= orgCount; o += 1) {
    const org = { id: seededUuid(random), name: `org${o}`, fullName: `Organization ${o}` };
    orgs.push(org);
    const own: VcdVdc[] = [];
    for (let v = 1; v <= vdcsPerOrg; v += 1) {
      own.push({ id: seededUuid(random), name: `org${o}-vdc${v}`, orgId: org.id });
    }
    vdcs.push(...own);
    if (own.length >= 2) {
      groups.push({
        id: seededUuid(random),
        name: `org${o}-group`,
        orgId: org.id,
        vdcIds: own.map((vdc) => vdc.id),
      });
    }
  }
  if (vdcs.length === 0 && vmCount > 0) throw new RangeError("VMs need at least one org and VDC");

  const vapps: VcdVapp[] = [];
  const vms: VcdVm[] = [];
  const openVapp = new Map<string, { vapp: VcdVapp; size: number }>();
  const statuses: VcdVmStatus[] = ["POWERED_ON", "POWERED_ON", "POWERED_ON", "POWERED_OFF"];
  for (let i = 0; i < vmCount; i += 1) {
    const vdc = vdcs[i % vdcs.length] as VcdVdc;
    const template = random.chance(templateShare);
    const key = `${vdc.id}/${template}`;
    let slot = openVapp.get(key);
    if (!slot || slot.size >= 4) {
      const vapp: VcdVapp = {
        id: seededUuid(random),
        name: template ? `tpl-${vapps.length + 1}` : `vapp-${vapps.length + 1}`,
        vdcId: vdc.id,
        template,
      };
      if (template) vapp.catalogName = "Templates";
      vapps.push(vapp);
      slot = { vapp, size: 0 };
      openVapp.set(key, slot);
    }
    slot.size += 1;
    const nicCount = random.chance(0.15) ? 2 : 1;
    const nics = Array.from({ length: nicCount }, (_, n) => {
      const dhcp = random.chance(0.2);
      return {
        network: `${vdc.name}-net${n + 1}`,
        mac: vmwareMac(i * 4 + n + 1),
        ip: dhcp ? undefined : `10.${(i >> 16) & 0xff}.${(i >> 8) & 0xff}.${i & 0xff}`,
        mode: dhcp ? ("DHCP" as const) : ("POOL" as const),
        adapterType: random.pick(ADAPTERS),
      };
    });
    vms.push(
      vcdVm({
        id: seededUuid(random),
        name: `${random.pick(ROLES)}-${String(i + 1).padStart(4, "0")}`,
        vappId: slot.vapp.id,
        status: template
          ? "POWERED_OFF"
          : random.chance(0.03)
            ? "SUSPENDED"
            : random.pick(statuses),
        cpus: random.pick([1, 2, 2, 4, 8]),
        memoryMb: random.pick(MEMORY_MB),
        guestOs: random.pick(GUEST_OS),
        nics,
        diskGb: Array.from({ length: random.int(1, 3) }, () => random.pick(DISK_GB)),
        moref: `vm-${10000 + i}`,
        hostName: `esx${String((i % 16) + 1).padStart(2, "0")}.example.com`,
        datastoreName: `ds-${(i % 8) + 1}`,
      }),
    );
  }

  const edges: VcdEdgeGateway[] = [];
  for (let e = 0; e < edgeCount && vdcs.length > 0; e += 1) {
    const group = groups.length > 0 && e % 3 === 2 ? groups[e % groups.length] : undefined;
    const vdc = vdcs[e % vdcs.length] as VcdVdc;
    edges.push(
      vcdEdgeGateway({
        id: seededUuid(random),
        name: `edge-${String(e + 1).padStart(3, "0")}`,
        owner: group ? { kind: "vdcGroup", id: group.id } : { kind: "vdc", id: vdc.id },
        primaryIp: `100.${64 + (e >> 8)}.${e & 0xff}.10`,
        orgVdcNetworkCount: random.int(1, 5),
      }),
    );
  }
  return new DirectorModel({ orgs, vdcs, vdcGroups: groups, vapps, vms, edgeGateways: edges });
}
