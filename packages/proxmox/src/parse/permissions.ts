import { z } from "zod";
import { parseData } from "./envelope.ts";
import { looseBool } from "./fields.ts";

/** `GET /access/permissions`: path → privilege → whether it propagates to sub-paths. */
export type ProxmoxPermissions = Record<string, Record<string, boolean>>;

const schema = z.record(z.string(), z.record(z.string(), looseBool));

/** Parses the body of `GET /api2/json/access/permissions` (for the "token holds more than read-only" warning). */
export function parsePermissions(body: unknown): ProxmoxPermissions {
  return parseData(schema, body, "GET /access/permissions");
}
