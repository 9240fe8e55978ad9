// Maps what the Director client read about one VM into the neutral shape (docs/behaviour.md §6).
import type {
  JsonObject,
  NeutralDisk,
  NeutralNic,
  NeutralPowerState,
  NeutralVm,
  ReportedAddress,
} from "@hyperlens/shared";
import { lastUuid } from "../href.ts";
import type { VcdDisk } from "../parse/disks.ts";
import type { VcdNetworkConnectionSection } from "../parse/network-connections.ts";
import type { VcdVmRecord } from "../parse/vm-records.ts";

const MIB = 1024 * 1024;

/** Director's query status (and the numeric codes of the VM element) → neutral state. */
export function powerState(status: string | null): NeutralPowerState {
  switch (status?.toUpperCase()) {
    case "POWERED_ON":
    case "4":
      return "RUNNING";
    case "POWERED_OFF":
    case "RESOLVED":
    case "DEPLOYED":
    case "PARTIALLY_POWERED_OFF":
    case "8":
    case "1":
      return "STOPPED";
    case "SUSPENDED":
    case "PARTIALLY_SUSPENDED":
    case "3":
      return "SUSPENDED";
    case "WAITING_FOR_INPUT":
    case "5":
      return "PAUSED";
    default:
      return "UNKNOWN";
  }
}

/** Director's disk bus codes (HostResource busType). */
const BUS_NAMES: Record<string, string> = { "5": "ide", "6": "scsi", "20": "sata", "21": "nvme" };

/** NIC key of a NetworkConnectionIndex: "nic0". */
export function nicKey(index: number): string {
  return `nic${index}`;
}

function toNics(section: VcdNetworkConnectionSection): NeutralNic[] {
  return section.connections.map((c) => ({
    key: nicKey(c.index),
    ...(c.mac ? { mac: c.mac } : {}),
    // "none" is Director's word for "not attached to any network".
    ...(c.network && c.network.toLowerCase() !== "none" ? { network: c.network } : {}),
    ...(c.adapterType ? { model: c.adapterType } : {}),
    ...(c.isConnected === null ? {} : { isConnected: c.isConnected }),
  }));
}

/**
 * The addresses Director assigned (POOL, MANUAL) or saw leased (DHCP) on each NIC. The NAT
 * `ExternalIpAddress` is left out of the list: it lives on the edge gateway, not in the guest, and
 * listing it as the VM's would make the same public address appear on every VM behind one SNAT
 * rule. It is kept in details (vcd.nics[].externalIpAddress) where the detail view shows it.
 */
function reportedAddresses(section: VcdNetworkConnectionSection): ReportedAddress[] {
  const seen = new Set<string>();
  return section.connections.flatMap((c) =>
    [c.ipAddress, ...c.secondaryIpAddresses].flatMap((address): ReportedAddress[] => {
      if (!address || seen.has(`${c.index}/${address}`)) return [];
      seen.add(`${c.index}/${address}`);
      return [
        {
          address,
          origin: c.allocationMode?.toUpperCase() === "DHCP" ? "DHCP" : "PLATFORM",
          // Director's own record of the NIC, not the guest's word (docs/behaviour.md §10.9).
          reportedBy: "config",
          nicKey: nicKey(c.index),
        },
      ];
    }),
  );
}

function toDisks(disks: readonly VcdDisk[]): NeutralDisk[] {
  return disks.map((d) => ({
    key: d.instanceId,
    // Director's own name for the disk, as its UI lists it: "Hard disk 1" (docs/behaviour.md §6.3).
    ...(d.name ? { label: d.name } : {}),
    ...(d.capacityMiB === null ? {} : { capacityBytes: Math.round(d.capacityMiB * MIB) }),
    ...(d.busType ? { busType: BUS_NAMES[d.busType] ?? d.busType } : {}),
  }));
}

/** What the VM was read in: the session's org is the VMs' org for a tenant session. */
export interface VcdVmContext {
  /** Org of a tenant session; a provider session reads `orgName` per record, when present. */
  sessionOrgName: string | null;
  /** Director's vCenter id → normalised vCenter address (provider sessions; see readVcenterHosts). */
  vcenterHosts?: ReadonlyMap<string, string>;
  /** Organization id → name (provider sessions, whose records name the org by href; see readOrgNames). */
  orgNames?: ReadonlyMap<string, string>;
}

/** The VM's org: the record's name, else the name of the org its href names, else the session's. */
function orgNameOf(record: VcdVmRecord, context: VcdVmContext): string | null {
  const orgId = record.orgHref ? lastUuid(record.orgHref) : null;
  const byHref = orgId === null ? undefined : context.orgNames?.get(orgId);
  return record.orgName ?? byHref ?? context.sessionOrgName;
}

/** Maps one VM (query record + NIC section + disks) to a {@link NeutralVm}. */
export function mapVcdVm(
  record: VcdVmRecord,
  section: VcdNetworkConnectionSection,
  disks: readonly VcdDisk[],
  context: VcdVmContext,
): NeutralVm {
  const neutralDisks = toDisks(disks);
  const nics = toNics(section);
  const sizes = neutralDisks.flatMap((d) =>
    d.capacityBytes === undefined ? [] : [d.capacityBytes],
  );
  const orgName = orgNameOf(record, context);
  const vcenterId = record.vcenterHref
    ? (lastUuid(record.vcenterHref) ?? record.vcenterHref)
    : null;
  const vcenterHost = vcenterId === null ? undefined : context.vcenterHosts?.get(vcenterId);
  const vcd: JsonObject = {
    href: record.href,
    status: record.status,
    isDeployed: record.isDeployed,
    vappHref: record.vappHref,
    vdcHref: record.vdcHref,
    orgHref: record.orgHref,
    hardwareVersion: record.hardwareVersion,
    storageProfileName: record.storageProfileName,
    primaryNic: section.primaryIndex === null ? null : nicKey(section.primaryIndex),
    nics: section.connections.map((c) => ({
      key: nicKey(c.index),
      allocationMode: c.allocationMode,
      externalIpAddress: c.externalIpAddress,
    })),
    disks: disks.map((d) => ({
      key: d.instanceId,
      name: d.name,
      busType: d.busType,
      busSubType: d.busSubType,
    })),
    vcenter:
      record.vcenterHref || record.moref
        ? {
            href: record.vcenterHref,
            name: record.vcenterName,
            vcenterHost: vcenterHost ?? null,
            moref: record.moref,
            hostName: record.hostName,
            datastoreName: record.datastoreName,
          }
        : null,
  };
  return {
    externalId: record.urn,
    name: record.name,
    kind: "VM",
    state: powerState(record.status),
    ...(record.cpuCount === null ? {} : { cpuCount: record.cpuCount }),
    ...(record.memoryMiB === null ? {} : { memoryBytes: record.memoryMiB * MIB }),
    ...(sizes.length ? { diskTotalBytes: sizes.reduce((a, b) => a + b, 0) } : {}),
    ...(record.guestOs ? { guestOs: record.guestOs } : {}),
    isTemplate: false,
    tags: [],
    location: {
      ...(orgName ? { orgName } : {}),
      ...(record.vdcName ? { vdcName: record.vdcName } : {}),
      ...(record.vappName ? { vappName: record.vappName } : {}),
    },
    nics,
    reportedAddresses: reportedAddresses(section),
    // Director reports what it assigned or saw this time: a missing address is really gone.
    ipsFromGuestAreLive: true,
    disks: neutralDisks,
    // Director reports no hostname, OS version or kernel from inside the guest (docs/behaviour.md §10.11).
    guestValues: {},
    guestReport: { code: "NOT_OFFERED_BY_SOURCE" },
    details: {
      source: "VCD",
      location: { org: orgName, vdc: record.vdcName, vapp: record.vappName },
      vcd,
    },
    ...(vcenterId && record.moref
      ? { backing: { vcenterId, moref: record.moref, ...(vcenterHost ? { vcenterHost } : {}) } }
      : {}),
  };
}
