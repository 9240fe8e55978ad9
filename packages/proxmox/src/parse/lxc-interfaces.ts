import { normalizeMac } from "@hyperlens/shared";
import { z } from "zod";
import type { GuestAddress, GuestInterface } from "./agent-interfaces.ts";
import { parseData } from "./envelope.ts";
import { looseInt, optional } from "./fields.ts";

const schema = z.array(
  z.looseObject({
    name: optional(z.string()),
    hwaddr: optional(z.string()),
    "hardware-address": optional(z.string()),
    inet: optional(z.string()),
    inet6: optional(z.string()),
    "ip-addresses": optional(
      z.array(
        z.looseObject({
          "ip-address": optional(z.string()),
          "ip-address-type": optional(z.string()),
          prefix: optional(looseInt),
        }),
      ),
    ),
  }),
);

/**
 * Parses `GET /nodes/{node}/lxc/{vmid}/interfaces` (PVE 8.1+): no `result` wrapper; `inet`/`inet6`
 * CIDR strings, and on 8.4+/9 also agent-like `hardware-address`/`ip-addresses`.
 */
export function parseLxcInterfaces(body: unknown): GuestInterface[] {
  return parseData(schema, body, "GET lxc interfaces").map((entry) => {
    const addresses: GuestAddress[] = [];
    const seen = new Set<string>();
    const add = (a: GuestAddress) => {
      if (seen.has(a.address)) return;
      seen.add(a.address);
      addresses.push(a);
    };
    for (const a of entry["ip-addresses"] ?? []) {
      const ip = a["ip-address"];
      if (ip)
        add({ address: ip, family: ip.includes(":") ? "ipv6" : "ipv4", prefix: a.prefix ?? null });
    }
    for (const [cidrs, family] of [
      [entry.inet, "ipv4"],
      [entry.inet6, "ipv6"],
    ] as const) {
      for (const cidr of (cidrs ?? "").split(/[\s,]+/)) {
        if (cidr === "") continue;
        const [ip = cidr, prefix] = cidr.split("/");
        add({
          address: ip,
          family,
          prefix: prefix && /^\d+$/.test(prefix) ? Number(prefix) : null,
        });
      }
    }
    return {
      name: entry.name ?? "",
      mac: normalizeMac(entry["hardware-address"] ?? entry.hwaddr),
      addresses,
    };
  });
}
