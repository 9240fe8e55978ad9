import { z } from "zod";
import { parseData } from "./envelope.ts";
import { looseBool, looseInt, optional } from "./fields.ts";

/** One guest of `GET /cluster/resources?type=vm`: every guest of the cluster, from one call. */
export interface ProxmoxClusterGuest {
  vmid: number;
  type: "qemu" | "lxc";
  node: string;
  /** null when empty or missing. */
  name: string | null;
  /** "running", "stopped"…; "unknown" for a guest on a node that is offline. */
  status: string;
  isTemplate: boolean;
}

const schema = z.array(
  z.looseObject({
    vmid: looseInt,
    type: z.string(),
    node: z.string(),
    name: optional(z.string()),
    status: optional(z.string()),
    template: optional(looseBool),
  }),
);

/**
 * Parses the cluster's guest resources. Entries of other types (a `type=vm` filter an old server
 * ignored) are left out; an unreadable guest entry fails the whole answer, never drops the guest.
 */
export function parseClusterGuests(body: unknown): ProxmoxClusterGuest[] {
  // TRAP: docs/behaviour.md §8.8 — dropping an unreadable guest would let the light poll remove it.
  const entries = parseData(schema, body, "GET /cluster/resources?type=vm");
  return entries.flatMap((e) =>
    e.type === "qemu" || e.type === "lxc"
      ? [
          {
            vmid: e.vmid,
            type: e.type,
            node: e.node,
            name: e.name ? e.name : null,
            status: e.status ?? "unknown",
            isTemplate: e.template ?? false,
          },
        ]
      : [],
  );
}
