import {
  type JsonObject,
  type JsonValue,
  type NeutralVm,
  VM_LOCATION_FIELDS,
  VM_OTHER_FIELDS,
} from "@hyperlens/shared";
import { canonicalJson } from "./canonical-json.ts";

/** The fields a person compares between two versions of a guest, JSON-safe. */
export interface VmSummary {
  listKey: string;
  name: string;
  kind: string;
  state: string;
  cpuCount: number | null;
  memoryBytes: number | null;
  diskTotalBytes: number | null;
  guestOs: string | null;
  guestOsCode: string | null;
  biosUuid: string | null;
  instanceUuid: string | null;
  isTemplate: boolean;
  tags: string[];
  nodeName: string | null;
  clusterName: string | null;
  datacenterName: string | null;
  hostName: string | null;
  orgName: string | null;
  vdcName: string | null;
  vappName: string | null;
  backing: string | null;
  /** "net0 aa:bb:… vmbr0" per NIC, sorted. */
  nics: string[];
  /** "10.0.0.5/24 (AGENT)" per address, rejected ones marked, sorted. */
  ips: string[];
  /** The address exports reach the guest at (docs/behaviour.md §10.9). */
  primaryAddress: string | null;
  /** "scsi0 34359738368 local-lvm" per disk, sorted. */
  disks: string[];
  details: JsonObject;
}

/** One field's change, as stored in vm_events.changes. */
export type FieldChange = { from: JsonValue; to: JsonValue };

/** What differs between two versions of a guest: location moves apart from other changes. */
export interface VmDiff {
  moved: Record<string, FieldChange>;
  changed: Record<string, FieldChange>;
}

const sorted = (items: string[]) => [...items].sort();

/** A NIC line of the summary. */
export function nicLine(nic: { key: string; mac?: string | null; network?: string | null }) {
  return [nic.key, nic.mac, nic.network].filter(Boolean).join(" ");
}

/** An address line of the summary. */
export function ipLine(ip: {
  address: string;
  prefixLength?: number | null;
  origin: string;
  isAccepted: boolean;
}) {
  const prefix = ip.prefixLength == null ? "" : `/${ip.prefixLength}`;
  return `${ip.address}${prefix} (${ip.origin}${ip.isAccepted ? "" : ", rejected"})`;
}

/** A disk line of the summary. */
export function diskLine(disk: {
  key: string;
  capacityBytes?: number | null;
  storage?: string | null;
}) {
  return [disk.key, disk.capacityBytes, disk.storage].filter((part) => part != null).join(" ");
}

/** The summary of a neutral VM read from `listKey`. */
export function summarizeNeutralVm(vm: NeutralVm, listKey: string): VmSummary {
  const loc = vm.location;
  return {
    listKey,
    name: vm.name,
    kind: vm.kind,
    state: vm.state,
    cpuCount: vm.cpuCount ?? null,
    memoryBytes: vm.memoryBytes ?? null,
    diskTotalBytes: vm.diskTotalBytes ?? null,
    guestOs: vm.guestOs ?? null,
    guestOsCode: vm.guestOsCode ?? null,
    biosUuid: vm.biosUuid ?? null,
    instanceUuid: vm.instanceUuid ?? null,
    isTemplate: vm.isTemplate,
    tags: sorted(vm.tags),
    nodeName: loc.nodeName ?? null,
    clusterName: loc.clusterName ?? null,
    datacenterName: loc.datacenterName ?? null,
    hostName: loc.hostName ?? null,
    orgName: loc.orgName ?? null,
    vdcName: loc.vdcName ?? null,
    vappName: loc.vappName ?? null,
    backing: vm.backing ? `${vm.backing.vcenterId}/${vm.backing.moref}` : null,
    nics: sorted(vm.nics.map(nicLine)),
    ips: sorted((vm.ips ?? []).map(ipLine)),
    primaryAddress: vm.primaryAddress ?? null,
    disks: sorted(vm.disks.map(diskLine)),
    details: vm.details,
  };
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/**
 * The field-by-field difference of two summaries. Location fields (list, node, host, org…) are
 * a move; `details` is compared per top-level key ("details.ha").
 */
export function diffVm(before: VmSummary, after: VmSummary): VmDiff {
  const moved: Record<string, FieldChange> = {};
  const changed: Record<string, FieldChange> = {};
  for (const field of VM_LOCATION_FIELDS) {
    if (before[field] !== after[field]) moved[field] = { from: before[field], to: after[field] };
  }
  for (const field of VM_OTHER_FIELDS) {
    if (!same(before[field], after[field])) {
      changed[field] = { from: before[field], to: after[field] };
    }
  }
  const keys = new Set([...Object.keys(before.details), ...Object.keys(after.details)]);
  for (const key of [...keys].sort()) {
    const from = before.details[key] ?? null;
    const to = after.details[key] ?? null;
    if (!same(from, to)) changed[`details.${key}`] = { from, to };
  }
  return { moved, changed };
}
