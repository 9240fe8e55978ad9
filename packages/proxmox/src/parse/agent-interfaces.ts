import { normalizeMac } from "@hyperlens/shared";
import { z } from "zod";
import { parseData } from "./envelope.ts";
import { looseInt, optional } from "./fields.ts";

/** An address reported by a guest agent or the container interfaces call. */
export interface GuestAddress {
  address: string;
  family: "ipv4" | "ipv6";
  prefix: number | null;
}

/** A network interface as the guest sees it (may be lo, docker0, a bridge…: filtering is the caller's job). */
export interface GuestInterface {
  name: string;
  mac: string | null;
  addresses: GuestAddress[];
}

/** What the agent call returned with HTTP 200: interfaces, or (old PVE) an agent error inside `result`. */
export type AgentNetworkResult =
  | { kind: "interfaces"; interfaces: GuestInterface[] }
  | { kind: "agent-error"; errorClass: string; message: string };

const address = z.looseObject({
  "ip-address": optional(z.string()),
  "ip-address-type": optional(z.string()),
  prefix: optional(looseInt),
});

const iface = z.looseObject({
  name: optional(z.string()),
  "hardware-address": optional(z.string()),
  "ip-addresses": optional(z.array(address)),
});

const schema = z.object({
  result: z.union([
    z.array(iface),
    z.looseObject({
      error: z.looseObject({ class: optional(z.string()), desc: optional(z.string()) }),
    }),
  ]),
});

/**
 * Parses `GET …/agent/network-get-interfaces` — note the double wrapper `{"data":{"result":[…]}}`.
 * Interfaces without `ip-addresses` or even `hardware-address` are kept with what they have.
 */
export function parseAgentNetwork(body: unknown): AgentNetworkResult {
  const data = parseData(schema, body, "GET agent/network-get-interfaces");
  if (!Array.isArray(data.result)) {
    return {
      kind: "agent-error",
      errorClass: data.result.error.class ?? "Unknown",
      message: data.result.error.desc ?? "the guest agent reported an error",
    };
  }
  return {
    kind: "interfaces",
    interfaces: data.result.map((entry) => ({
      name: entry.name ?? "",
      mac: normalizeMac(entry["hardware-address"]),
      addresses: (entry["ip-addresses"] ?? []).flatMap((a) => {
        const ip = a["ip-address"];
        if (!ip) return [];
        const family: GuestAddress["family"] =
          a["ip-address-type"] === "ipv6" || ip.includes(":") ? "ipv6" : "ipv4";
        return [{ address: ip, family, prefix: a.prefix ?? null }];
      }),
    })),
  };
}
