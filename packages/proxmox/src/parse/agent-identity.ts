import { z } from "zod";
import { parseData } from "./envelope.ts";
import { optional } from "./fields.ts";

/** What `guest-get-osinfo` tells about the guest; null where the agent left a field out. */
export interface AgentOsInfo {
  /** "Debian GNU/Linux 12 (bookworm)", "Microsoft Windows Server 2022 Standard". */
  prettyName: string | null;
  name: string | null;
  /** "12 (bookworm)", "2022"; version-id ("12") when the agent gives no version. */
  version: string | null;
  /** kernel-release: "6.1.0-18-amd64", "10.0" on Windows. */
  kernel: string | null;
}

const text = optional(z.string().transform((value) => value.trim() || null));
const agentError = z.looseObject({
  error: z.looseObject({ class: optional(z.string()), desc: optional(z.string()) }),
});
const osInfo = z.object({
  result: z.union([
    agentError,
    z.looseObject({
      "pretty-name": text,
      name: text,
      version: text,
      "version-id": text,
      "kernel-release": text,
    }),
  ]),
});
const hostName = z.object({
  result: z.union([agentError, z.looseObject({ "host-name": text })]),
});

/**
 * Parses `GET …/agent/get-osinfo` (`{"data":{"result":{…}}}`); null when the agent answered with
 * its own error (an old agent without the command).
 */
export function parseAgentOsInfo(body: unknown): AgentOsInfo | null {
  const { result } = parseData(osInfo, body, "GET agent/get-osinfo");
  if ("error" in result) return null;
  return {
    prettyName: result["pretty-name"] ?? null,
    name: result.name ?? null,
    version: result.version ?? result["version-id"] ?? null,
    kernel: result["kernel-release"] ?? null,
  };
}

/** Parses `GET …/agent/get-host-name`: the guest's own hostname, or null. */
export function parseAgentHostName(body: unknown): string | null {
  const { result } = parseData(hostName, body, "GET agent/get-host-name");
  return "error" in result ? null : (result["host-name"] ?? null);
}
