// The neutral inventory shape (docs/behaviour.md §6): what every source adapter produces and the sync engine
// reconciles. Universal code: no server-only imports, so the web app can use the same types.
import type { AddressRejectRule, ReportedAddress } from "./address-rules/apply.ts";

import type { GuestReport, GuestValueField } from "./guest-values.ts";
import type { ServerText } from "./server-text/server-text.ts";

/** A value that survives JSON.stringify/parse unchanged. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON object (details, raw source fields). */
export type JsonObject = { [key: string]: JsonValue };

/** Where a guest runs; each source fills the fields it knows. */
export interface NeutralLocation {
  nodeName?: string;
  clusterName?: string;
  datacenterName?: string;
  hostName?: string;
  orgName?: string;
  vdcName?: string;
  vappName?: string;
}

/** One network interface as configured on the guest. */
export interface NeutralNic {
  /** The source's own name for the slot: "net0", a NIC index, a device key. Unique per VM. */
  key: string;
  /** The name the source's own UI shows: "Network adapter 1" (docs/behaviour.md §6.3). */
  label?: string;
  /** Lower-case, colon-separated. */
  mac?: string;
  network?: string;
  model?: string;
  isConnected?: boolean;
  vlan?: number;
}

/** Where an address can come from. */
export const IP_ORIGINS = ["STATIC_CONFIG", "DHCP", "AGENT", "PLATFORM"] as const;

/** Where an address came from. */
export type IpOrigin = (typeof IP_ORIGINS)[number];

/** One address of a guest, accepted or rejected with the reason (docs/behaviour.md §10 explained IPs). */
export interface NeutralIp {
  address: string;
  prefixLength?: number;
  origin: IpOrigin;
  /** Interface name as the guest reported it. */
  interfaceName?: string;
  /** The NeutralNic.key this address belongs to, when known. */
  nicKey?: string;
  isAccepted: boolean;
  /** Why a reported address was rejected ("docker0: MAC 02:42:… is not a NIC of this VM"). */
  rejectReason?: string;
  /** rejectReason as a code and parameters (docs/behaviour.md §11.4). */
  rejectReasonText?: ServerText;
  /** The address rule that rejected it (docs/behaviour.md §10 address rules). */
  rejectRule?: AddressRejectRule;
}

/** One virtual disk. */
export interface NeutralDisk {
  /** Unique per VM: "scsi0", a disk instance id. */
  key: string;
  /** The name the source's own UI shows: "Hard disk 1" (docs/behaviour.md §6.3). */
  label?: string;
  capacityBytes?: number;
  storage?: string;
  busType?: string;
}

/** The power states a guest can be in, whatever its source. */
export const POWER_STATES = ["RUNNING", "STOPPED", "PAUSED", "SUSPENDED", "UNKNOWN"] as const;

/** A guest's power state. */
export type NeutralPowerState = (typeof POWER_STATES)[number];

/** The kinds of guest: a virtual machine or a (Proxmox LXC) container. */
export const GUEST_KINDS = ["VM", "CONTAINER"] as const;

/** One kind of guest. */
export type GuestKind = (typeof GUEST_KINDS)[number];

/**
 * Whether the last sync saw a stored guest, and if not why it was kept (docs/behaviour.md §10:
 * offline is not gone): seen, its node offline, its list failed, or missing under the guard.
 */
export const CONFIRMATIONS = ["CONFIRMED", "NODE_OFFLINE", "LIST_FAILED", "NOT_CONFIRMED"] as const;

/** One confirmation state of a stored guest. */
export type Confirmation = (typeof CONFIRMATIONS)[number];

/**
 * The places a guest runs that are named (a node, cluster, datacenter, host, org or VDC): each is
 * a filter that holds a whole name, a facet of the filter bar and a column the search matches.
 */
export const NAMED_LOCATION_FIELDS = [
  "nodeName",
  "clusterName",
  "datacenterName",
  "hostName",
  "orgName",
  "vdcName",
] as const;

/** What a sync recorded happening to a guest, as its history (vm_events) lists it. */
export const VM_EVENT_TYPES = ["APPEARED", "CHANGED", "MOVED", "REMOVED", "RESTORED"] as const;

/** One kind of guest history event. */
export type VmEventType = (typeof VM_EVENT_TYPES)[number];

/** A VM or container, whatever its source. */
export interface NeutralVm {
  /** The source's own id: Proxmox vmid as a string, Director VM URN, vCenter VM moref. */
  externalId: string;
  name: string;
  kind: GuestKind;
  state: NeutralPowerState;
  cpuCount?: number;
  memoryBytes?: number;
  diskTotalBytes?: number;
  /** The guest OS as the source's own UI names it ("Red Hat Enterprise Linux 9 (64-bit)"). */
  guestOs?: string;
  /** The source's raw OS code the name was made from (`RHEL_9_64`, `l26`), kept for search and scripts. */
  guestOsCode?: string;
  /** The SMBIOS/BIOS UUID the guest sees (vCenter identity.bios_uuid, Proxmox smbios1 uuid). */
  biosUuid?: string;
  /** vCenter's instance UUID, unique per VM within a vCenter. */
  instanceUuid?: string;
  /** Templates are left out of VM counts by default (docs/behaviour.md §6.4). */
  isTemplate: boolean;
  tags: string[];
  location: NeutralLocation;
  nics: NeutralNic[];
  /**
   * Every address the source reported for the guest, raw, before any rule (docs/behaviour.md
   * §10.9): the sync judges these by the connection's rules and keeps them, so a rules change can
   * be previewed and applied without asking the hypervisor.
   */
  reportedAddresses: ReportedAddress[];
  /**
   * What the connection's address rules made of `reportedAddresses`, filled in by the sync engine
   * for the guests it writes (docs/behaviour.md §10.9). An adapter leaves it out: judging the
   * report there too cost a sync its CPU twice over (issue 26), and only the engine knows the
   * connection's rules.
   */
  ips?: NeutralIp[];
  /** The accepted address the primary rule picked (docs/behaviour.md §10.9); the engine's too. */
  primaryAddress?: string;
  /**
   * false when the guest agent / VMware Tools were silent this time: the AGENT addresses stored
   * before are kept as last-known with their old lastConfirmedAt (docs/behaviour.md §10 last-known IPs).
   */
  ipsFromGuestAreLive: boolean;
  disks: NeutralDisk[];
  /**
   * What the guest agent / VMware Tools reported about the guest this time. A field left out keeps
   * its last-known value (docs/behaviour.md §10.10).
   */
  guestValues?: Partial<Record<GuestValueField, string>>;
  /** How the agent / Tools fared this time, and why they gave nothing (docs/behaviour.md §10.11). */
  guestReport?: GuestReport;
  /**
   * The common detail layout (docs/behaviour.md §6) plus raw source fields. Keep volatile metrics (uptime,
   * CPU load) out: every change here rewrites the row and records a CHANGED event.
   */
  details: JsonObject;
  /** Director VMs: the vCenter and managed-object reference backing them (docs/behaviour.md §10). */
  backing?: {
    /** Director's own id of the vCenter (its vimServer UUID). */
    vcenterId: string;
    moref: string;
    /**
     * The vCenter's address as `normalizeHost` spells it, when Director's list of registered
     * vCenters could be read (provider sessions only): what links the VM to a vCenter connection.
     */
    vcenterHost?: string;
  };
}

/**
 * Where a Director VM's stored `details` keep its `backing.vcenterHost` (inside the adapter's own
 * `vcd` section): the Director adapter writes it there and the API's cross-source links read it
 * back, so neither side imports the other (docs/behaviour.md §10).
 */
export const BACKING_VCENTER_HOST_DETAIL_PATH = ["vcd", "vcenter", "vcenterHost"] as const;

/** A hypervisor node (Proxmox node, vCenter host). */
export interface NeutralNode {
  externalId: string;
  name: string;
  clusterName?: string;
  isOnline: boolean;
  cpuCount?: number;
  memoryBytes?: number;
  details: JsonObject;
}

/** A Director edge gateway, owned by a VDC or a VDC group (docs/behaviour.md §10). */
export interface NeutralEdgeGateway {
  externalId: string;
  name: string;
  orgName?: string;
  ownerType?: "VDC" | "VDC_GROUP";
  ownerName?: string;
  details: JsonObject;
}

/**
 * One source list as read: "pve1/qemu", "pve1/lxc", or "vms" for Director/vCenter (one list,
 * "ok" only when read completely). Removal is scoped to lists that came back ok. The list a VM
 * belongs to is the list it arrived in — it is not repeated on the VM.
 */
export type ListRead =
  | { key: string; status: "ok"; vms: NeutralVm[] }
  | { key: string; status: "failed"; reason: string; reasonText?: ServerText }
  | { key: string; status: "node_offline"; reason: string; reasonText?: ServerText };

/** Everything one read of a source produced; the only input of the sync engine. */
export interface SourceSnapshot {
  /** The complete node list when the source has nodes; omitted leaves stored nodes untouched. */
  nodes?: NeutralNode[];
  lists: ListRead[];
  /** Edge gateways; missing ones are removed only when isComplete. */
  edgeGateways?: { isComplete: boolean; reason?: string; items: NeutralEdgeGateway[] };
}

/** The phases a sync goes through, in order. */
export type SyncPhase = "reading" | "reconciling" | "recording";

/** What started a sync: the scheduler, the web app, an API token, the `hyperlens sync` command, or a light poll that changed something (docs/behaviour.md §8.7). */
export const SYNC_TRIGGERS = ["SCHEDULE", "MANUAL", "API", "CLI", "POLL"] as const;

/** One sync trigger. */
export type SyncTrigger = (typeof SYNC_TRIGGERS)[number];

/**
 * Where a sync run stands, as a connection's `lastSyncOutcome` and a run's `outcome` store it:
 * still RUNNING, or how it ended (CANCELLED: stopped at its safe point, nothing written).
 */
export const SYNC_OUTCOMES = ["RUNNING", "SUCCESS", "PARTIAL", "FAILED", "CANCELLED"] as const;

/** One sync outcome. */
export type SyncOutcome = (typeof SYNC_OUTCOMES)[number];

/** How a sync that ran to its end ended. */
export type SyncRunOutcome = Extract<SyncOutcome, "SUCCESS" | "PARTIAL" | "FAILED">;

/** What a sync did (or, in a dry run, would do). */
export interface SyncCounts {
  /** Guests seen in lists that came back. */
  seen: number;
  added: number;
  changed: number;
  /** Tombstoned guests seen again. */
  restored: number;
  removed: number;
  unchanged: number;
  /** Inventory rows inserted, updated or deleted (0 for a dry run or an unchanged source). */
  rowsWritten: number;
}

/** A progress event of a running sync, JSON-safe (GraphQL subscription `syncProgress`). */
export type SyncProgressEvent =
  | { type: "started"; connectionId: string; syncRunId: string; dryRun: boolean }
  | { type: "phase"; phase: SyncPhase }
  | {
      type: "list";
      key: string;
      status: "ok" | "skipped";
      count?: number;
      reason?: string;
      /** The reason as a code and parameters, where the source has words for it. */
      reasonText?: ServerText;
    }
  | { type: "counts"; counts: SyncCounts }
  | { type: "guard"; known: number; present: number; message: string; messageText?: ServerText }
  | {
      type: "finished";
      outcome: SyncRunOutcome;
      counts: SyncCounts;
      message: string;
      /** The message as codes and parameters, one per sentence (docs/behaviour.md §11.4). */
      messageTexts?: ServerText[];
    }
  | {
      type: "failed";
      errorClass: string;
      message: string;
      /** The message as a code, where the door framed the hypervisor's words (§11.4). */
      messageTexts?: ServerText[];
    };
