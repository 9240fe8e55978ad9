// Maps what the Proxmox client read about one guest into the neutral shape (docs/behaviour.md §6).
import {
  type GuestReport,
  type GuestValueField,
  guestReportedAddresses,
  type JsonObject,
  type JsonValue,
  type NeutralDisk,
  type NeutralNic,
  type NeutralPowerState,
  type NeutralVm,
  normalizeMac,
  type ReportedAddress,
} from "@hyperlens/shared";
import type { AgentIdentity, AgentInterfacesOutcome, LxcInterfacesOutcome } from "../client.ts";
import type { GuestDisk } from "../config/disks.ts";
import type { GuestInterface } from "../parse/agent-interfaces.ts";
import type { LxcConfig, QemuConfig } from "../parse/guest-config.ts";
import type { ProxmoxGuestSummary } from "../parse/guest-list.ts";
import { osName } from "./os-names.ts";

/** Where the guest was found. */
export interface GuestPlace {
  node: string;
  clusterName: string | null;
  /** The privilege this cluster's Proxmox version checks for agent reads (agentPrivilege). */
  agentPrivilege: string;
}

const MIB = 1024 * 1024;
// Never stored, even masked: cloud-init passwords and the like.
const UNSAFE_CONFIG_KEYS = /pass|secret|token|key$/i;

/** The neutral power state of a Proxmox status ("running", "stopped"…). */
export function powerState(status: string): NeutralPowerState {
  switch (status) {
    case "running":
      return "RUNNING";
    case "stopped":
      return "STOPPED";
    case "paused":
      return "PAUSED";
    case "suspended":
    case "prelaunch":
      return "SUSPENDED";
    default:
      return "UNKNOWN";
  }
}

function toDisks(disks: readonly GuestDisk[]): NeutralDisk[] {
  return disks.map((d) => ({
    key: d.key,
    busType: d.bus,
    ...(d.sizeBytes === null ? {} : { capacityBytes: d.sizeBytes }),
    ...(d.storage === null ? {} : { storage: d.storage }),
  }));
}

function sum(disks: readonly NeutralDisk[]): number | undefined {
  const sizes = disks.flatMap((d) => (d.capacityBytes === undefined ? [] : [d.capacityBytes]));
  return sizes.length ? sizes.reduce((a, b) => a + b, 0) : undefined;
}

const isScalar = (value: unknown) =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

// Unsorted: the fingerprint's canonical JSON sorts keys and jsonb stores them in its own order, so
// sorting here (with localeCompare) only cost every guest of every sync (issue 26).
function safeRaw(raw: Record<string, unknown>): JsonObject {
  const entries = Object.entries(raw).filter(
    ([key, value]) => isScalar(value) && !UNSAFE_CONFIG_KEYS.test(key),
  );
  return Object.fromEntries(entries) as { [key: string]: JsonValue };
}

function commonDetails(
  summary: ProxmoxGuestSummary,
  place: GuestPlace,
  config: QemuConfig | LxcConfig,
  extra: JsonObject,
): JsonObject {
  return {
    source: "PROXMOX",
    location: { node: place.node, cluster: place.clusterName },
    proxmox: {
      vmid: summary.vmid,
      type: summary.type,
      ostype: config.ostype,
      lock: summary.lock,
      ...extra,
    },
    description: config.description,
    config: safeRaw(config.raw),
  };
}

function base(summary: ProxmoxGuestSummary, place: GuestPlace, config: QemuConfig | LxcConfig) {
  return {
    externalId: String(summary.vmid),
    state: powerState(summary.status),
    isTemplate: config.isTemplate || summary.isTemplate,
    tags: config.tags.length ? config.tags : summary.tags,
    location: {
      nodeName: place.node,
      ...(place.clusterName ? { clusterName: place.clusterName } : {}),
    },
    ...(config.ostype ? { guestOs: osName(config.ostype), guestOsCode: config.ostype } : {}),
  };
}

/** Why a QEMU VM's agent gave nothing, as a code the web app translates (docs/behaviour.md §10.11). */
function agentReport(
  config: QemuConfig,
  agent: AgentInterfacesOutcome | undefined,
  place: GuestPlace,
): GuestReport {
  if (!config.isAgentEnabled) return { code: "AGENT_NOT_CONFIGURED" };
  if (agent === undefined) return { code: "VM_NOT_RUNNING" };
  if (agent.kind === "ok") return { code: "REPORTED" };
  switch (agent.reason) {
    case "vm-not-running":
      return { code: "VM_NOT_RUNNING" };
    case "agent-not-running":
      return { code: "AGENT_NOT_RUNNING" };
    case "agent-not-configured":
      return { code: "AGENT_NOT_CONFIGURED" };
    case "not-permitted":
      return {
        code: "PERMISSION_MISSING",
        privilege: place.agentPrivilege,
        message: agent.message,
      };
    case "agent-error":
      return { code: "READ_FAILED", message: agent.message };
  }
}

/** The values the agent reported; a value it would not give is left out and stays last-known. */
function agentValues(
  identity: AgentIdentity | undefined,
): Partial<Record<GuestValueField, string>> {
  const os = identity?.osInfo;
  const values: [GuestValueField, string | null | undefined][] = [
    ["HOSTNAME", identity?.hostName],
    ["OS_NAME", os?.prettyName ?? os?.name],
    ["OS_VERSION", os?.version],
    ["KERNEL", os?.kernel],
  ];
  return Object.fromEntries(
    values.filter((entry): entry is [GuestValueField, string] => !!entry[1]),
  );
}

/** The addresses the guest agent (or, for a container, the host) reported, raw. */
export function agentReportedAddresses(interfaces: readonly GuestInterface[]): ReportedAddress[] {
  return guestReportedAddresses(
    interfaces.map((iface) => ({
      name: iface.name,
      mac: iface.mac,
      addresses: iface.addresses.map((a) => ({ address: a.address, prefixLength: a.prefix })),
    })),
  );
}

/** A QEMU VM: NICs and disks from its config, IPs from the agent filtered by those NICs. */
export function mapQemuGuest(
  summary: ProxmoxGuestSummary,
  config: QemuConfig,
  agent: AgentInterfacesOutcome | undefined,
  place: GuestPlace,
  identity?: AgentIdentity,
): NeutralVm {
  const nics: NeutralNic[] = config.nics.map((n) => ({
    key: n.key,
    ...(n.mac ? { mac: n.mac } : {}),
    ...(n.bridge ? { network: n.bridge } : {}),
    ...(n.model ? { model: n.model } : {}),
    isConnected: !n.isLinkDown,
    ...(n.vlanTag === null ? {} : { vlan: n.vlanTag }),
  }));
  const reportedAddresses = agent?.kind === "ok" ? agentReportedAddresses(agent.interfaces) : [];
  const disks = toDisks(config.disks);
  return {
    ...base(summary, place, config),
    name: config.name ?? summary.name ?? `VM ${summary.vmid}`,
    kind: "VM",
    ...(config.smbiosUuid ? { biosUuid: config.smbiosUuid } : {}),
    cpuCount: config.vcpus,
    memoryBytes: config.memoryMiB * MIB,
    ...(sum(disks) === undefined ? {} : { diskTotalBytes: sum(disks) }),
    nics,
    reportedAddresses,
    ipsFromGuestAreLive: agent?.kind === "ok",
    disks,
    guestValues: agentValues(identity),
    guestReport: agentReport(config, agent, place),
    details: commonDetails(summary, place, config, {
      sockets: config.sockets,
      cores: config.cores,
    }),
  };
}

/** The addresses a container's config declares (`ip=10.0.0.5/24`); `ip=dhcp` declares none. */
function configuredAddresses(config: LxcConfig): ReportedAddress[] {
  return config.nics.flatMap((nic) =>
    [nic.ipv4, nic.ipv6].flatMap((ip): ReportedAddress[] =>
      ip?.kind === "static"
        ? [
            {
              address: ip.address,
              origin: "STATIC_CONFIG",
              reportedBy: "config",
              nicKey: nic.key,
              ...(ip.prefix === null ? {} : { prefixLength: ip.prefix }),
              ...(nic.name ? { interfaceName: nic.name } : {}),
            },
          ]
        : [],
    ),
  );
}

/**
 * The addresses the host reports live for a running container, raw; one on a NIC the config sets
 * to `ip=dhcp` is DHCP-leased. The config already states static addresses: the live copy adds nothing.
 */
function liveAddresses(
  config: LxcConfig,
  live: LxcInterfacesOutcome | undefined,
  statics: readonly ReportedAddress[],
): ReportedAddress[] {
  if (live?.kind !== "ok") return [];
  const dhcpMacs = new Set(
    config.nics
      .filter((n) => n.ipv4?.kind === "dhcp" || n.ipv6?.kind === "dhcp")
      .map((n) => normalizeMac(n.mac)),
  );
  return agentReportedAddresses(live.interfaces)
    .filter((a) => !statics.some((s) => s.address === a.address))
    .map((a) => (dhcpMacs.has(normalizeMac(a.mac)) ? { ...a, origin: "DHCP" as const } : a));
}

/** How a container's live interfaces fared (docs/behaviour.md §10.11). */
function liveReport(live: LxcInterfacesOutcome | undefined): GuestReport {
  if (live === undefined) return { code: "CONTAINER_STOPPED" };
  if (live.kind === "ok") return { code: "REPORTED" };
  if (live.kind === "not-offered") return { code: "NOT_OFFERED_BY_SOURCE" };
  return { code: "READ_FAILED", message: live.message };
}

/**
 * A container: static addresses from its config (`ip=10.0.0.5/24`), `ip=dhcp` recorded as such,
 * and for a running container the live addresses the host reports, filtered by the NICs' MACs.
 */
export function mapLxcGuest(
  summary: ProxmoxGuestSummary,
  config: LxcConfig,
  live: LxcInterfacesOutcome | undefined,
  place: GuestPlace,
): NeutralVm {
  const nics: NeutralNic[] = config.nics.map((n) => ({
    key: n.key,
    ...(n.mac ? { mac: n.mac } : {}),
    ...(n.bridge ? { network: n.bridge } : {}),
    model: "veth",
    ...(n.vlanTag === null ? {} : { vlan: n.vlanTag }),
  }));
  const statics = configuredAddresses(config);
  const reportedAddresses = [...statics, ...liveAddresses(config, live, statics)];
  const disks = toDisks(config.disks);
  const addressing: JsonObject = Object.fromEntries(
    config.nics.map((n) => [n.key, { ipv4: n.ipv4?.kind ?? null, ipv6: n.ipv6?.kind ?? null }]),
  );
  return {
    ...base(summary, place, config),
    name: config.hostname ?? summary.name ?? `CT ${summary.vmid}`,
    kind: "CONTAINER",
    ...(config.cores === null
      ? summary.cpus === null
        ? {}
        : { cpuCount: summary.cpus }
      : { cpuCount: config.cores }),
    memoryBytes: config.memoryMiB * MIB,
    ...(sum(disks) === undefined ? {} : { diskTotalBytes: sum(disks) }),
    nics,
    reportedAddresses,
    ipsFromGuestAreLive: live?.kind === "ok",
    disks,
    // A container's hostname is its config's, so it never flaps.
    guestValues: config.hostname ? { HOSTNAME: config.hostname } : {},
    guestReport: liveReport(live),
    details: commonDetails(summary, place, config, {
      addressing,
      swapBytes: config.swapMiB * MIB,
    }),
  };
}
