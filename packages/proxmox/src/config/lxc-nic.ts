import { normalizeMac } from "@hyperlens/shared";
import { parsePropertyString } from "./property-string.ts";

/** How a container interface gets its IPv4 address. */
export type LxcIpv4 =
  | { kind: "static"; cidr: string; address: string; prefix: number | null }
  | { kind: "dhcp" }
  | { kind: "manual" };

/** How a container interface gets its IPv6 address. */
export type LxcIpv6 =
  | { kind: "static"; cidr: string; address: string; prefix: number | null }
  | { kind: "dhcp" }
  | { kind: "auto" }
  | { kind: "manual" };

/** A container NIC, from a `netN` config line. */
export interface LxcNic {
  key: string;
  index: number;
  /** Interface name inside the container, e.g. "eth0". */
  name: string | null;
  mac: string | null;
  bridge: string | null;
  vlanTag: number | null;
  /** null when the line has no `ip=` at all. */
  ipv4: LxcIpv4 | null;
  gateway4: string | null;
  ipv6: LxcIpv6 | null;
  gateway6: string | null;
  isFirewalled: boolean;
}

const NIC_KEY = /^net(\d+)$/;

/**
 * Parses `netN: name=eth0,bridge=vmbr0,hwaddr=…,ip=10.0.0.5/24,gw=…,ip6=…,type=veth`.
 * `ip=dhcp` means the address is assigned by DHCP: there is no static address to show.
 */
export function parseLxcNic(key: string, value: string): LxcNic | null {
  const match = NIC_KEY.exec(key);
  if (!match) return null;
  const { values } = parsePropertyString(value);
  const tag = values.get("tag");
  return {
    key,
    index: Number(match[1]),
    name: values.get("name") ?? null,
    mac: normalizeMac(values.get("hwaddr")),
    bridge: values.get("bridge") ?? null,
    vlanTag: tag !== undefined && /^\d+$/.test(tag) ? Number(tag) : null,
    ipv4: parseIpv4(values.get("ip")),
    gateway4: values.get("gw") ?? null,
    ipv6: parseIpv6(values.get("ip6")),
    gateway6: values.get("gw6") ?? null,
    isFirewalled: values.get("firewall") === "1",
  };
}

function parseIpv4(text: string | undefined): LxcIpv4 | null {
  if (text === undefined || text === "") return null;
  const lower = text.toLowerCase();
  if (lower === "dhcp") return { kind: "dhcp" };
  if (lower === "manual") return { kind: "manual" };
  return { kind: "static", ...splitCidr(text) };
}

function parseIpv6(text: string | undefined): LxcIpv6 | null {
  if (text === undefined || text === "") return null;
  const lower = text.toLowerCase();
  if (lower === "dhcp") return { kind: "dhcp" };
  if (lower === "auto") return { kind: "auto" };
  if (lower === "manual") return { kind: "manual" };
  return { kind: "static", ...splitCidr(text) };
}

function splitCidr(cidr: string): { cidr: string; address: string; prefix: number | null } {
  const [address = cidr, prefix] = cidr.split("/");
  return {
    cidr,
    address,
    prefix: prefix !== undefined && /^\d+$/.test(prefix) ? Number(prefix) : null,
  };
}
