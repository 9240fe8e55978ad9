import { z } from "zod";
import { parseData } from "./envelope.ts";
import { looseNumber, optional } from "./fields.ts";

/** One entry of `GET /nodes`. Offline nodes carry only name, status and fingerprint. */
export interface ProxmoxNode {
  node: string;
  status: "online" | "offline" | "unknown";
  cpuUsage: number | null;
  maxCpu: number | null;
  memBytes: number | null;
  maxMemBytes: number | null;
  uptimeSeconds: number | null;
  sslFingerprint: string | null;
}

const schema = z.array(
  z.looseObject({
    node: z.string(),
    status: optional(z.string()),
    cpu: optional(looseNumber),
    maxcpu: optional(looseNumber),
    mem: optional(looseNumber),
    maxmem: optional(looseNumber),
    uptime: optional(looseNumber),
    ssl_fingerprint: optional(z.string()),
  }),
);

/** Parses the body of `GET /api2/json/nodes`. */
export function parseNodes(body: unknown): ProxmoxNode[] {
  return parseData(schema, body, "GET /nodes").map((entry) => ({
    node: entry.node,
    status: entry.status === "online" || entry.status === "offline" ? entry.status : "unknown",
    cpuUsage: entry.cpu ?? null,
    maxCpu: entry.maxcpu ?? null,
    memBytes: entry.mem ?? null,
    maxMemBytes: entry.maxmem ?? null,
    uptimeSeconds: entry.uptime ?? null,
    sslFingerprint: entry.ssl_fingerprint ?? null,
  }));
}
