// The client's address, for the sign-in limits. Behind a reverse proxy every request comes from
// the proxy, so its X-Forwarded-For says who the client is — but anyone can send that header, so
// it is believed only from a configured trusted proxy, and only as far as trusted hops vouch.
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/** A network in CIDR form, e.g. 10.0.0.0/8 or fd00::/8 (a bare address is one host). */
export interface Cidr {
  address: string;
  prefix: number;
  family: "ipv4" | "ipv6";
}

/** Parses a comma-separated list of CIDRs; the entries that are not CIDRs come back apart. */
export function parseCidrList(text: string): { networks: Cidr[]; invalid: string[] } {
  const networks: Cidr[] = [];
  const invalid: string[] = [];
  for (const entry of text.split(",").map((part) => part.trim())) {
    if (!entry) continue;
    const [address = "", prefixText, ...rest] = entry.split("/");
    const version = isIP(address);
    const maxPrefix = version === 6 ? 128 : 32;
    const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
    const isPrefixValid =
      (prefixText === undefined || /^\d{1,3}$/.test(prefixText)) && prefix <= maxPrefix;
    if (version === 0 || rest.length > 0 || !isPrefixValid) invalid.push(entry);
    else networks.push({ address, prefix, family: version === 6 ? "ipv6" : "ipv4" });
  }
  return { networks, invalid };
}

/** "::ffff:192.0.2.1" (an IPv4 client on a dual-stack socket) as "192.0.2.1"; others as given. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/**
 * A function answering a request's client address: the TCP peer, unless the peer is a trusted
 * proxy; then the right-most address in X-Forwarded-For that is not itself a trusted proxy.
 */
export function clientAddressResolver(
  trustedProxies: readonly Cidr[],
): (request: IncomingMessage) => string | undefined {
  const trusted = new BlockList();
  for (const network of trustedProxies)
    trusted.addSubnet(network.address, network.prefix, network.family);
  const isTrusted = (address: string) => {
    const version = isIP(address);
    return version !== 0 && trusted.check(address, version === 6 ? "ipv6" : "ipv4");
  };
  return (request) => {
    const peer = request.socket.remoteAddress;
    // TRAP: docs/operations.md trusted proxies — a header from any other peer is the client's own
    // claim: believed, it gave each guess a fresh address and so an unlimited sign-in budget.
    if (peer === undefined || !isTrusted(peer)) return peer && plainAddress(peer);
    const header = request.headers["x-forwarded-for"];
    const hops = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",");
    // Each trusted hop appended the address it saw; left of the first untrusted one, the client
    // wrote what it liked.
    let client = peer;
    for (const hop of hops.map((h) => h.trim()).reverse()) {
      if (!hop) continue;
      if (isIP(hop) === 0) break;
      client = hop;
      if (!isTrusted(hop)) break;
    }
    return plainAddress(client);
  };
}
