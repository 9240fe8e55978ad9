import { randomUUID } from "node:crypto";
import type { SeededRandom } from "../random.ts";
import type {
  IpAllocationMode,
  VcdDisk,
  VcdEdgeGateway,
  VcdNic,
  VcdVm,
  VcdVmStatus,
} from "./model.ts";

/** A version-4-shaped UUID from the PRNG, so generated inventories keep their IDs across runs. */
export function seededUuid(random: SeededRandom): string {
  const hex = random.hex(16);
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A VMware-OUI MAC (`00:50:56:…`) derived from a number, unique per number below 2^24. */
export function vmwareMac(n: number): string {
  const bytes = [(n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  return `00:50:56:${bytes.map((b) => b.toString(16).padStart(2, "0")).join(":")}`;
}

/** What {@link vcdNic} needs; the rest defaults to a connected VMXNET3 NIC. */
export interface VcdNicSpec {
  index?: number;
  network: string;
  mac: string;
  ip?: string;
  externalIp?: string;
  /** Default POOL when `ip` is given, DHCP otherwise. */
  mode?: IpAllocationMode;
  connected?: boolean;
  adapterType?: string;
}

/** A NIC with realistic defaults. */
export function vcdNic(spec: VcdNicSpec, index = 0): VcdNic {
  const nic: VcdNic = {
    index: spec.index ?? index,
    network: spec.network,
    mac: spec.mac,
    allocationMode: spec.mode ?? (spec.ip ? "POOL" : "DHCP"),
    connected: spec.connected ?? true,
    adapterType: spec.adapterType ?? "VMXNET3",
  };
  if (spec.ip !== undefined) nic.ipAddress = spec.ip;
  if (spec.externalIp !== undefined) nic.externalIpAddress = spec.externalIp;
  return nic;
}

/** What {@link vcdVm} needs: a name and a vApp; everything else has a default. */
export interface VcdVmSpec {
  /** Default: a random UUID. */
  id?: string;
  name: string;
  vappId: string;
  status?: VcdVmStatus;
  cpus?: number;
  memoryMb?: number;
  guestOs?: string;
  hardwareVersion?: number;
  nics?: VcdNicSpec[];
  /** Disk sizes in GB (each becomes a disk on the first SCSI controller). Default [40]. */
  diskGb?: number[];
  disks?: VcdDisk[];
  storageProfileName?: string;
  moref?: string;
  /** The registered vCenter backing it; default the model's first. */
  vcenterId?: string;
  hostName?: string;
  datastoreName?: string;
  vmToolsVersion?: string;
  dateCreated?: string;
}

/** A VM with realistic defaults (powered on, 2 vCPU, 4 GB, one 40 GB disk, no NIC). */
export function vcdVm(spec: VcdVmSpec): VcdVm {
  const nics = (spec.nics ?? []).map((nic, i) => vcdNic(nic, i));
  const id = spec.id ?? randomUUID();
  return {
    id,
    name: spec.name,
    vappId: spec.vappId,
    status: spec.status ?? "POWERED_ON",
    cpus: spec.cpus ?? 2,
    memoryMb: spec.memoryMb ?? 4096,
    guestOs: spec.guestOs ?? "Ubuntu Linux (64-bit)",
    hardwareVersion: spec.hardwareVersion ?? 19,
    nics,
    primaryNicIndex: nics[0]?.index ?? 0,
    disks: spec.disks ?? (spec.diskGb ?? [40]).map((gb) => ({ sizeMb: gb * 1024 })),
    storageProfileName: spec.storageProfileName ?? "Gold",
    moref: spec.moref ?? `vm-${Number.parseInt(id.slice(0, 6), 16) % 100000}`,
    ...(spec.vcenterId === undefined ? {} : { vcenterId: spec.vcenterId }),
    hostName: spec.hostName ?? "esx01.example.com",
    datastoreName: spec.datastoreName ?? "vsanDatastore",
    vmToolsVersion: spec.vmToolsVersion ?? "12352",
    dateCreated: spec.dateCreated ?? "2024-02-01T10:00:00.000Z",
  };
}

/** What {@link vcdEdgeGateway} needs. */
export interface VcdEdgeGatewaySpec {
  id?: string;
  name: string;
  owner: VcdEdgeGateway["owner"];
  /** Uplink address; default 203.0.113.10. */
  primaryIp?: string;
  uplinkName?: string;
  orgVdcNetworkCount?: number;
}

/** An NSX-T edge gateway with one Tier-0 uplink in a /24. */
export function vcdEdgeGateway(spec: VcdEdgeGatewaySpec): VcdEdgeGateway {
  const primaryIp = spec.primaryIp ?? "203.0.113.10";
  return {
    id: spec.id ?? randomUUID(),
    name: spec.name,
    description: "",
    owner: spec.owner,
    uplinkName: spec.uplinkName ?? "ext-t0",
    gateway: `${primaryIp.split(".").slice(0, 3).join(".")}.1`,
    prefixLength: 24,
    primaryIp,
    orgVdcNetworkCount: spec.orgVdcNetworkCount ?? 1,
  };
}
