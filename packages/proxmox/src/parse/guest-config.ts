import { z } from "zod";
import { isAgentEnabled } from "../config/agent-flag.ts";
import { type GuestDisk, parseLxcVolume, parseQemuDisk } from "../config/disks.ts";
import { type LxcNic, parseLxcNic } from "../config/lxc-nic.ts";
import { parseQemuNic, type QemuNic } from "../config/qemu-nic.ts";
import { smbiosUuid } from "../config/smbios-uuid.ts";
import { parseTags } from "../config/tags.ts";
import { parseData } from "./envelope.ts";

/** What QEMU VMs and containers share in their config. */
interface GuestConfigBase {
  ostype: string | null;
  isTemplate: boolean;
  tags: string[];
  description: string | null;
  disks: GuestDisk[];
  /** The whole config as served, for fields we do not model. */
  raw: Record<string, unknown>;
}

/** `GET /nodes/{node}/qemu/{vmid}/config`, read into the fields an inventory needs. */
export interface QemuConfig extends GuestConfigBase {
  name: string | null;
  cores: number;
  sockets: number;
  /** cores × sockets. */
  vcpus: number;
  /** Configured memory in MiB (Proxmox default 512 when unset). */
  memoryMiB: number;
  isAgentEnabled: boolean;
  /** The `smbios1` uuid the guest sees, lower-case. */
  smbiosUuid: string | null;
  nics: QemuNic[];
}

/** `GET /nodes/{node}/lxc/{vmid}/config`, read into the fields an inventory needs. */
export interface LxcConfig extends GuestConfigBase {
  hostname: string | null;
  /** Configured cores; null means "all host cores" (no limit set). */
  cores: number | null;
  memoryMiB: number;
  swapMiB: number;
  nics: LxcNic[];
}

const configSchema = z.record(z.string(), z.unknown());

/** Parses the body of a QEMU config read. Defaults follow Proxmox: 1 core, 1 socket, 512 MiB. */
export function parseQemuConfig(body: unknown, call = "GET qemu config"): QemuConfig {
  const raw = parseData(configSchema, body, call);
  const cores = positiveInt(raw.cores) ?? 1;
  const sockets = positiveInt(raw.sockets) ?? 1;
  const entries = sortedEntries(raw);
  return {
    name: text(raw.name),
    cores,
    sockets,
    vcpus: cores * sockets,
    memoryMiB: memoryMiB(raw.memory) ?? 512,
    ostype: text(raw.ostype),
    isAgentEnabled: isAgentEnabled(raw.agent),
    smbiosUuid: smbiosUuid(raw.smbios1),
    isTemplate: flag(raw.template),
    tags: parseTags(raw.tags),
    description: text(raw.description),
    nics: entries.flatMap(([key, value]) => {
      const nic = typeof value === "string" ? parseQemuNic(key, value) : null;
      return nic ? [nic] : [];
    }),
    disks: entries.flatMap(([key, value]) => {
      const disk = typeof value === "string" ? parseQemuDisk(key, value) : null;
      return disk ? [disk] : [];
    }),
    raw,
  };
}

/** Parses the body of a container config read. Defaults follow Proxmox: 512 MiB memory and swap. */
export function parseLxcConfig(body: unknown, call = "GET lxc config"): LxcConfig {
  const raw = parseData(configSchema, body, call);
  const entries = sortedEntries(raw);
  return {
    hostname: text(raw.hostname),
    cores: positiveInt(raw.cores),
    memoryMiB: memoryMiB(raw.memory) ?? 512,
    swapMiB: nonNegativeInt(raw.swap) ?? 512,
    ostype: text(raw.ostype),
    isTemplate: flag(raw.template),
    tags: parseTags(raw.tags),
    description: text(raw.description),
    nics: entries.flatMap(([key, value]) => {
      const nic = typeof value === "string" ? parseLxcNic(key, value) : null;
      return nic ? [nic] : [];
    }),
    disks: entries.flatMap(([key, value]) => {
      const disk = typeof value === "string" ? parseLxcVolume(key, value) : null;
      return disk ? [disk] : [];
    }),
    raw,
  };
}

// Config keys come in hash order; sort so net2 follows net1 and rootfs precedes mp0. Each key is
// ranked once (not in every comparison): configs are sorted for every guest of every sync.
function sortedEntries(raw: Record<string, unknown>): [string, unknown][] {
  const ranked = Object.entries(raw).map((entry) => {
    const key = entry[0];
    const match = /^([a-z]+)(\d+)$/.exec(key);
    const prefix = match ? (match[1] ?? key) : key === "rootfs" ? "mp" : key;
    return { entry, prefix, index: match ? Number(match[2]) : -1 };
  });
  // Keys are ASCII: plain comparison orders them as localeCompare did, without ICU per comparison.
  ranked.sort((a, b) => (a.prefix === b.prefix ? a.index - b.index : a.prefix < b.prefix ? -1 : 1));
  return ranked.map((r) => r.entry);
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function flag(value: unknown): boolean {
  return value === 1 || value === "1" || value === true;
}

function nonNegativeInt(value: unknown): number | null {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : null;
}

function positiveInt(value: unknown): number | null {
  const n = nonNegativeInt(value);
  return n !== null && n > 0 ? n : null;
}

// Newer qemu-server serves memory as a property string ("4096" or "current=4096").
function memoryMiB(value: unknown): number | null {
  if (typeof value === "string" && value.includes("=")) {
    const current = /(?:^|,)current=(\d+)/.exec(value);
    return current?.[1] ? Number(current[1]) : null;
  }
  return positiveInt(value);
}
