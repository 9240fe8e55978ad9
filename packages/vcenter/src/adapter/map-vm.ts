// Maps what the vCenter client read about one VM into the neutral shape (docs/behaviour.md §6).
import {
  type GuestReport,
  type GuestValueField,
  guestReportedAddresses,
  type JsonObject,
  type NeutralDisk,
  type NeutralNic,
  type NeutralPowerState,
  type NeutralVm,
  normalizeMac,
  type ReportedAddress,
} from "@hyperlens/shared";
import type { GuestIdentityOutcome, GuestInterfacesOutcome } from "../client.ts";
import type { VcenterGuestInterface } from "../parse/guest-interfaces.ts";
import type { VcenterVmInfo } from "../parse/vm-info.ts";
import type { VcenterVmSummary } from "../parse/vm-list.ts";
import { guestOsName } from "./guest-os-names.ts";

const MIB = 1024 * 1024;

/** Where the VM runs, as names (null when unknown). */
export interface VcenterVmPlace {
  datacenterName: string | null;
  clusterName: string | null;
  hostName: string | null;
  /** Host moref, kept in details. */
  host: string | null;
}

/** What the VM was read in. */
export interface VcenterVmContext {
  /** The vCenter's name (base URL host), kept for the Director↔vCenter link (docs/behaviour.md §10). */
  serverName: string | null;
}

/** vCenter's power state → neutral state. */
export function powerState(state: string): NeutralPowerState {
  switch (state) {
    case "POWERED_ON":
      return "RUNNING";
    case "POWERED_OFF":
      return "STOPPED";
    case "SUSPENDED":
      return "SUSPENDED";
    default:
      return "UNKNOWN";
  }
}

/** `[datastore1] vm/vm.vmdk` → `datastore1`. */
export function datastoreOf(vmdkFile: string | null): string | null {
  const match = /^\[([^\]]+)\]/.exec(vmdkFile ?? "");
  return match?.[1] ?? null;
}

function toNics(info: VcenterVmInfo): NeutralNic[] {
  return info.nics.map((n) => {
    const mac = normalizeMac(n.macAddress);
    const network = n.networkName ?? n.network;
    return {
      key: n.key,
      ...(n.label ? { label: n.label } : {}),
      ...(mac ? { mac } : {}),
      ...(network ? { network } : {}),
      ...(n.type ? { model: n.type.toLowerCase() } : {}),
      ...(n.state === null ? {} : { isConnected: n.state === "CONNECTED" }),
    };
  });
}

function toDisks(info: VcenterVmInfo): NeutralDisk[] {
  return info.disks.map((d) => {
    const storage = datastoreOf(d.vmdkFile);
    return {
      key: d.key,
      ...(d.label ? { label: d.label } : {}),
      ...(d.capacityBytes === null ? {} : { capacityBytes: d.capacityBytes }),
      ...(storage ? { storage } : {}),
      ...(d.type ? { busType: d.type.toLowerCase() } : {}),
    };
  });
}

/** How VMware Tools fared, as a code the web app translates (docs/behaviour.md §10.11). */
function toolsReport(guest: GuestInterfacesOutcome | undefined): GuestReport {
  if (guest === undefined) return { code: "VM_NOT_RUNNING" };
  if (guest.kind === "ok") return { code: "REPORTED" };
  if (guest.status === 503) return { code: "TOOLS_NOT_RUNNING" };
  if (guest.status === 403) return { code: "PERMISSION_MISSING", message: guest.reason };
  return { code: "READ_FAILED", message: guest.reason };
}

/** Hostname and OS as Tools report them; what they would not give stays last-known. */
function toolsValues(
  identity: GuestIdentityOutcome | undefined,
): Partial<Record<GuestValueField, string>> {
  if (identity?.kind !== "ok") return {};
  const { hostName, fullName } = identity.identity;
  return {
    ...(hostName ? { HOSTNAME: hostName } : {}),
    ...(fullName ? { OS_NAME: fullName } : {}),
  };
}

/**
 * The addresses VMware Tools reported, raw. Every one is AGENT, DHCP-leased or not: only AGENT
 * addresses are kept as last-known when Tools fall silent (docs/behaviour.md §10.2).
 */
export function toolsReportedAddresses(
  interfaces: readonly VcenterGuestInterface[],
): ReportedAddress[] {
  return guestReportedAddresses(
    interfaces.map((iface) => ({
      mac: iface.macAddress,
      nicKey: iface.nic,
      addresses: iface.addresses,
    })),
  );
}

/**
 * Maps one VM (list row + VM.Info + guest interfaces, or undefined when not asked) to a
 * {@link NeutralVm}, identified by its moref (`vm-1049`).
 */
export function mapVcenterVm(
  summary: VcenterVmSummary,
  info: VcenterVmInfo,
  guest: GuestInterfacesOutcome | undefined,
  place: VcenterVmPlace,
  context: VcenterVmContext,
  identity?: GuestIdentityOutcome,
): NeutralVm {
  const nics = toNics(info);
  const disks = toDisks(info);
  const sizes = disks.flatMap((d) => (d.capacityBytes === undefined ? [] : [d.capacityBytes]));
  const cpuCount = info.cpuCount ?? summary.cpuCount;
  const memoryMiB = info.memoryMiB ?? summary.memoryMiB;
  const reportedAddresses = guest?.kind === "ok" ? toolsReportedAddresses(guest.interfaces) : [];
  const vcenter: JsonObject = {
    moref: summary.vm,
    server: context.serverName,
    instanceUuid: info.instanceUuid,
    biosUuid: info.biosUuid,
    host: place.host,
    guestOsId: info.guestOs,
    powerState: info.powerState,
    hardwareVersion: info.hardwareVersion,
    coresPerSocket: info.coresPerSocket,
    nics: info.nics.map((n) => ({
      key: n.key,
      label: n.label,
      macType: n.macType,
      backingType: n.backingType,
      networkId: n.network,
      startConnected: n.startConnected,
    })),
    disks: info.disks.map((d) => ({
      key: d.key,
      label: d.label,
      backingType: d.backingType,
      vmdkFile: d.vmdkFile,
    })),
  };
  return {
    externalId: summary.vm,
    name: info.name,
    kind: "VM",
    state: powerState(info.powerState),
    ...(cpuCount === null ? {} : { cpuCount }),
    ...(memoryMiB === null ? {} : { memoryBytes: memoryMiB * MIB }),
    ...(sizes.length ? { diskTotalBytes: sizes.reduce((a, b) => a + b, 0) } : {}),
    ...(info.guestOs ? { guestOs: guestOsName(info.guestOs), guestOsCode: info.guestOs } : {}),
    // UUIDs lower-case, as vCenter writes them: the search matches them whole (docs/behaviour.md §9.2).
    ...(info.biosUuid ? { biosUuid: info.biosUuid.toLowerCase() } : {}),
    ...(info.instanceUuid ? { instanceUuid: info.instanceUuid.toLowerCase() } : {}),
    // The VM list does not return templates (docs/behaviour.md §6.4): every VM read is an instance.
    isTemplate: false,
    tags: [],
    location: {
      ...(place.datacenterName ? { datacenterName: place.datacenterName } : {}),
      ...(place.clusterName ? { clusterName: place.clusterName } : {}),
      ...(place.hostName ? { hostName: place.hostName } : {}),
    },
    nics,
    reportedAddresses,
    // Tools silent (VM off, Tools not running): the last-known addresses stay (docs/behaviour.md §10).
    ipsFromGuestAreLive: guest?.kind === "ok",
    disks,
    guestValues: toolsValues(identity),
    guestReport: toolsReport(guest),
    details: {
      source: "VCENTER",
      location: {
        datacenter: place.datacenterName,
        cluster: place.clusterName,
        host: place.hostName,
      },
      vcenter,
    },
  };
}
