import { z } from "zod";
import { parseData } from "./envelope.ts";
import { looseBool, looseInt, optional } from "./fields.ts";

/** `GET /cluster/status`: the cluster name (none on a standalone node) and node membership. */
export interface ProxmoxClusterStatus {
  /** null on a standalone node, which has no `type=cluster` entry. */
  clusterName: string | null;
  quorate: boolean | null;
  nodes: {
    name: string;
    nodeId: number | null;
    isOnline: boolean;
    ip: string | null;
    isLocal: boolean;
  }[];
}

const entry = z.looseObject({
  type: z.string(),
  name: optional(z.string()),
  quorate: optional(looseBool),
  nodeid: optional(looseInt),
  online: optional(looseBool),
  local: optional(looseBool),
  ip: optional(z.string()),
});

/** Parses the body of `GET /api2/json/cluster/status`. */
export function parseClusterStatus(body: unknown): ProxmoxClusterStatus {
  const entries = parseData(z.array(entry), body, "GET /cluster/status");
  const cluster = entries.find((e) => e.type === "cluster");
  return {
    clusterName: cluster?.name ?? null,
    quorate: cluster?.quorate ?? null,
    nodes: entries
      .filter((e) => e.type === "node" && typeof e.name === "string")
      .map((e) => ({
        name: e.name ?? "",
        nodeId: e.nodeid ?? null,
        isOnline: e.online ?? false,
        ip: e.ip ?? null,
        isLocal: e.local ?? false,
      })),
  };
}
