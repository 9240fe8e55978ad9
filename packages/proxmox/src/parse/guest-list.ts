import { z } from "zod";
import { parseTags } from "../config/tags.ts";
import { parseData } from "./envelope.ts";
import { looseBool, looseInt, looseNumber, optional } from "./fields.ts";

/** One guest of `GET /nodes/{node}/qemu` or `/lxc`. Stopped guests lack pid and report usage as 0. */
export interface ProxmoxGuestSummary {
  vmid: number;
  type: "qemu" | "lxc";
  /** null when empty (containers may have "" as name). */
  name: string | null;
  /** "running", "stopped", "paused"… as the list reports it. */
  status: string;
  isTemplate: boolean;
  tags: string[];
  cpus: number | null;
  maxMemBytes: number | null;
  maxDiskBytes: number | null;
  uptimeSeconds: number | null;
  pid: number | null;
  lock: string | null;
}

const schema = z.array(
  z.looseObject({
    // TRAP: docs/behaviour.md §3 — container vmid is a string before PVE 8.2; a strict number would fail every CT list.
    vmid: looseInt,
    name: optional(z.string()),
    status: optional(z.string()),
    template: optional(looseBool),
    tags: optional(z.string()),
    cpus: optional(looseNumber),
    maxmem: optional(looseNumber),
    maxdisk: optional(looseNumber),
    uptime: optional(looseNumber),
    pid: optional(looseInt),
    lock: optional(z.string()),
  }),
);

/**
 * Parses a per-node guest list. One unreadable entry (no vmid) fails the whole list rather than
 * being dropped.
 */
export function parseGuestList(
  body: unknown,
  type: "qemu" | "lxc",
  node: string,
): ProxmoxGuestSummary[] {
  // TRAP: docs/behaviour.md §3 — silently dropping an unreadable guest would let the sync remove it; a failed list is kept whole.
  const entries = parseData(schema, body, `GET /nodes/${node}/${type}`);
  return entries.map((e) => ({
    vmid: e.vmid,
    type,
    name: e.name ? e.name : null,
    status: e.status ?? "unknown",
    isTemplate: e.template ?? false,
    tags: parseTags(e.tags),
    cpus: e.cpus ?? null,
    maxMemBytes: e.maxmem ?? null,
    maxDiskBytes: e.maxdisk ?? null,
    uptimeSeconds: e.uptime ?? null,
    pid: e.pid ?? null,
    lock: e.lock ?? null,
  }));
}
