import { z } from "zod";
import { optionalBoolean, optionalCount, optionalString } from "./fields.ts";
import { parseWith } from "./malformed.ts";
import type { VcenterPowerState } from "./vm-list.ts";

/** One virtual NIC of VM.Info (`nics` is an object keyed by device key, e.g. "4000"). */
export interface VcenterNic {
  /** The device key, "4000". */
  key: string;
  label: string | null;
  /** Emulation type: VMXNET3, E1000E… */
  type: string | null;
  /** As vCenter sent it (case not normalized here). */
  macAddress: string | null;
  macType: string | null;
  /** CONNECTED, NOT_CONNECTED, RECOVERABLE_ERROR… */
  state: string | null;
  startConnected: boolean | null;
  backingType: string | null;
  /** Network moref: `network-1041`, `dvportgroup-22`. */
  network: string | null;
  networkName: string | null;
}

/** One virtual disk of VM.Info (`disks` keyed by device key, e.g. "16000"). */
export interface VcenterDisk {
  key: string;
  label: string | null;
  /** Bus: IDE, SCSI, SATA, NVME. */
  type: string | null;
  capacityBytes: number | null;
  backingType: string | null;
  /** `[datastore] folder/file.vmdk`. */
  vmdkFile: string | null;
}

/** What Hyperlens uses of `GET /api/vcenter/vm/{vm}` (VM.Info). */
export interface VcenterVmInfo {
  name: string;
  /** vCenter's guest OS identifier, e.g. `RHEL_7_64`. */
  guestOs: string | null;
  powerState: VcenterPowerState;
  cpuCount: number | null;
  coresPerSocket: number | null;
  memoryMiB: number | null;
  hardwareVersion: string | null;
  instanceUuid: string | null;
  biosUuid: string | null;
  /** In device-key order. */
  nics: VcenterNic[];
  disks: VcenterDisk[];
}

const nic = z.object({
  label: optionalString,
  type: optionalString,
  mac_address: optionalString,
  mac_type: optionalString,
  state: optionalString,
  start_connected: optionalBoolean,
  backing: z
    .object({ type: optionalString, network: optionalString, network_name: optionalString })
    .optional()
    .catch(undefined),
});

const disk = z.object({
  label: optionalString,
  type: optionalString,
  capacity: optionalCount,
  backing: z
    .object({ type: optionalString, vmdk_file: optionalString })
    .optional()
    .catch(undefined),
});

// TRAP: docs/behaviour.md §5 — guest_OS, hardware.version, NIC and disk types are open enums (8.0 added values
// 7.0 lacks, e.g. ALMALINUX_64, VMX_21): a closed list would drop them or fail a newer vCenter's VMs.
const info = z.object({
  name: z.string(),
  guest_OS: optionalString,
  power_state: z.string(),
  cpu: z
    .object({ count: optionalCount, cores_per_socket: optionalCount })
    .optional()
    .catch(undefined),
  memory: z.object({ size_MiB: optionalCount }).optional().catch(undefined),
  hardware: z.object({ version: optionalString }).optional().catch(undefined),
  identity: z
    .object({ instance_uuid: optionalString, bios_uuid: optionalString })
    .optional()
    .catch(undefined),
  // TRAP: docs/behaviour.md §5 — nics/disks are objects keyed by device key; reading them as arrays finds none.
  nics: z.record(z.string(), nic),
  disks: z.record(z.string(), disk),
});

const byDeviceKey = (a: [string, unknown], b: [string, unknown]) =>
  Number(a[0]) - Number(b[0]) || a[0].localeCompare(b[0]);

/** Parses `GET /api/vcenter/vm/{vm}`. */
export function parseVmInfo(value: unknown, call: string): VcenterVmInfo {
  const vm = parseWith(info, value, call, "vm");
  return {
    name: vm.name,
    guestOs: vm.guest_OS ?? null,
    powerState: vm.power_state,
    cpuCount: vm.cpu?.count ?? null,
    coresPerSocket: vm.cpu?.cores_per_socket ?? null,
    memoryMiB: vm.memory?.size_MiB ?? null,
    hardwareVersion: vm.hardware?.version ?? null,
    instanceUuid: vm.identity?.instance_uuid ?? null,
    biosUuid: vm.identity?.bios_uuid ?? null,
    nics: Object.entries(vm.nics)
      .sort(byDeviceKey)
      .map(([key, n]) => ({
        key,
        label: n.label ?? null,
        type: n.type ?? null,
        macAddress: n.mac_address ?? null,
        macType: n.mac_type ?? null,
        state: n.state ?? null,
        startConnected: n.start_connected ?? null,
        backingType: n.backing?.type ?? null,
        network: n.backing?.network ?? null,
        networkName: n.backing?.network_name ?? null,
      })),
    disks: Object.entries(vm.disks)
      .sort(byDeviceKey)
      .map(([key, d]) => ({
        key,
        label: d.label ?? null,
        type: d.type ?? null,
        capacityBytes: d.capacity ?? null,
        backingType: d.backing?.type ?? null,
        vmdkFile: d.backing?.vmdk_file ?? null,
      })),
  };
}
