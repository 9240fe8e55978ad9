import { createHash } from "node:crypto";
import type { ConfigValue, Guest, LxcGuest, QemuGuest } from "./model.ts";
import type { VersionTraits } from "./versions.ts";

type Json = Record<string, unknown>;

interface LiveFigures {
  cpu: number;
  mem: number;
  disk: number;
  diskread: number;
  diskwrite: number;
  netin: number;
  netout: number;
  uptime: number;
  pid?: number;
}

/** Usage figures derived from the vmid: stable across runs, zero (and no pid) when stopped. */
function live(guest: Guest): LiveFigures {
  if (guest.status !== "running") {
    return { cpu: 0, mem: 0, disk: 0, diskread: 0, diskwrite: 0, netin: 0, netout: 0, uptime: 0 };
  }
  const v = guest.vmid;
  return {
    cpu: ((v * 37) % 100) / 1000,
    mem: Math.floor(guest.maxmem * (0.2 + (v % 60) / 100)),
    disk: guest.type === "lxc" ? Math.floor(guest.maxdisk * 0.3) : 0,
    diskread: v * 104_729,
    diskwrite: v * 52_361,
    netin: v * 7_919_113,
    netout: v * 1_299_709,
    uptime: guest.uptime ?? 3600 * ((v % 200) + 1),
    pid: 1000 + v * 13,
  };
}

function pressure(guest: Guest, traits: VersionTraits): Json {
  if (!traits.listsHavePressure || guest.status !== "running") return {};
  return {
    pressurecpufull: 0,
    pressurecpusome: 0.01,
    pressureiofull: 0,
    pressureiosome: 0,
    pressurememoryfull: 0,
    pressurememorysome: 0,
  };
}

/** Keys present only when set, as in the per-node lists (template only when 1). */
function optional(guest: Guest): Json {
  const out: Json = {};
  if (guest.tags.length > 0) out.tags = guest.tags.join(";");
  if (guest.template) out.template = 1;
  return out;
}

/** One entry of GET /nodes/{node}/qemu. */
export function qemuListEntry(guest: QemuGuest, traits: VersionTraits): Json {
  const { pid, ...figures } = live(guest);
  const entry: Json = {
    cpu: figures.cpu,
    cpus: guest.cpus,
    disk: 0,
    diskread: figures.diskread,
    diskwrite: figures.diskwrite,
    maxdisk: guest.maxdisk,
    maxmem: guest.maxmem,
    mem: figures.mem,
    name: guest.name,
    netin: figures.netin,
    netout: figures.netout,
    status: guest.status,
    uptime: figures.uptime,
    vmid: guest.vmid,
    ...optional(guest),
    ...pressure(guest, traits),
  };
  if (pid !== undefined) entry.pid = pid;
  if (traits.listsHavePressure && guest.status === "running") entry.memhost = figures.mem;
  return entry;
}

/** One entry of GET /nodes/{node}/lxc (vmid a string before PVE 8.2). */
export function lxcListEntry(guest: LxcGuest, traits: VersionTraits): Json {
  const { pid, ...figures } = live(guest);
  const entry: Json = {
    cpu: figures.cpu,
    cpus: guest.cpus,
    disk: figures.disk,
    diskread: figures.diskread,
    diskwrite: figures.diskwrite,
    maxdisk: guest.maxdisk,
    maxmem: guest.maxmem,
    maxswap: guest.maxswap,
    mem: figures.mem,
    name: guest.name,
    netin: figures.netin,
    netout: figures.netout,
    status: guest.status,
    swap: 0,
    type: "lxc",
    uptime: figures.uptime,
    vmid: traits.lxcVmidIsString ? String(guest.vmid) : guest.vmid,
    ...optional(guest),
    ...pressure(guest, traits),
  };
  if (pid !== undefined) entry.pid = pid;
  return entry;
}

/** A guest entry of GET /cluster/resources (vmid always an integer, template always present). */
export function guestResource(guest: Guest, nodeOnline: boolean): Json {
  const figures = live(guest);
  const entry: Json = {
    cpu: nodeOnline ? figures.cpu : 0,
    disk: figures.disk,
    diskread: figures.diskread,
    diskwrite: figures.diskwrite,
    id: `${guest.type}/${guest.vmid}`,
    maxcpu: guest.cpus,
    maxdisk: guest.maxdisk,
    maxmem: guest.maxmem,
    mem: nodeOnline ? figures.mem : 0,
    name: guest.name,
    netin: figures.netin,
    netout: figures.netout,
    node: guest.node,
    // pmxcfs still lists guests of a dead node, but nobody can vouch for their state.
    status: nodeOnline ? guest.status : "unknown",
    template: guest.template ? 1 : 0,
    type: guest.type,
    uptime: nodeOnline ? figures.uptime : 0,
    vmid: guest.vmid,
  };
  if (guest.pool) entry.pool = guest.pool;
  if (guest.tags.length > 0) entry.tags = guest.tags.join(";");
  return entry;
}

/** Body of GET /nodes/{node}/qemu/{vmid}/config. */
export function qemuConfig(guest: QemuGuest, traits: VersionTraits): Record<string, ConfigValue> {
  const memoryMiB = Math.round(guest.maxmem / 1024 ** 2);
  const config: Record<string, ConfigValue> = {
    ...guest.config,
    memory: traits.qemuMemoryIsString ? String(memoryMiB) : memoryMiB,
    name: guest.name,
  };
  return withCommon(config, guest);
}

/** Body of GET /nodes/{node}/lxc/{vmid}/config. */
export function lxcConfig(guest: LxcGuest): Record<string, ConfigValue> {
  const config: Record<string, ConfigValue> = {
    ...guest.config,
    hostname: guest.name,
    memory: Math.round(guest.maxmem / 1024 ** 2),
  };
  return withCommon(config, guest);
}

/** Body of GET /nodes/{node}/lxc/{vmid}/interfaces; null while stopped (no container pid). */
export function lxcInterfaces(guest: LxcGuest): Json[] | null {
  if (guest.status !== "running") return null;
  return guest.interfaces.map((iface) => {
    const addresses: Json[] = [];
    if (iface.inet) addresses.push(cidrAddress(iface.inet, "ipv4"));
    if (iface.inet6) addresses.push(cidrAddress(iface.inet6, "ipv6"));
    // 8.x/9.x answer both the old keys (hwaddr/inet/inet6) and the agent-like ones.
    return { ...iface, "hardware-address": iface.hwaddr, "ip-addresses": addresses };
  });
}

function cidrAddress(cidr: string, type: "ipv4" | "ipv6"): Json {
  const [address, prefix] = cidr.split("/");
  return {
    "ip-address": address,
    "ip-address-type": type,
    prefix: Number(prefix ?? (type === "ipv4" ? 32 : 128)),
  };
}

function withCommon(
  config: Record<string, ConfigValue>,
  guest: Guest,
): Record<string, ConfigValue> {
  if (guest.tags.length > 0) config.tags = guest.tags.join(";");
  else delete config.tags;
  if (guest.template) config.template = 1;
  config.digest = createHash("sha1").update(JSON.stringify(config)).digest("hex");
  return config;
}
