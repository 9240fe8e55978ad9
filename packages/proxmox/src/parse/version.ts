import { z } from "zod";
import { parseData } from "./envelope.ts";
import { optional } from "./fields.ts";

/** `GET /version`. */
export interface ProxmoxVersion {
  /** "7.4-16" before 8.0, "8.2.4" since. */
  version: string;
  release: string | null;
  repoid: string | null;
  major: number | null;
  minor: number | null;
}

const schema = z.looseObject({
  version: z.string(),
  release: optional(z.string()),
  repoid: optional(z.string()),
});

/** Parses the body of `GET /api2/json/version`. */
export function parseVersion(body: unknown): ProxmoxVersion {
  const data = parseData(schema, body, "GET /version");
  const match = /^(\d+)\.(\d+)/.exec(data.release ?? data.version);
  return {
    version: data.version,
    release: data.release ?? null,
    repoid: data.repoid ?? null,
    major: match?.[1] ? Number(match[1]) : null,
    minor: match?.[2] ? Number(match[2]) : null,
  };
}
