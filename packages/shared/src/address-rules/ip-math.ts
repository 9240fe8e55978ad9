// Address and subnet arithmetic for the address rules (docs/behaviour.md §10.9), written
// out rather than taken from node:net so the web app can validate a rule as it is typed.

/** An address as bytes: 4 for IPv4, 16 for IPv6. */
export interface ParsedAddress {
  family: 4 | 6;
  bytes: Uint8Array;
}

/** A subnet: its network address and prefix length. */
export interface Subnet extends ParsedAddress {
  prefixLength: number;
  /** As the administrator wrote it, for messages ("10.0.0.0/8"). */
  text: string;
}

function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    bytes[i] = Number(part);
  }
  return bytes;
}

function parseGroups(text: string): number[] | null {
  if (text === "") return [];
  const groups: number[] = [];
  for (const group of text.split(":")) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    groups.push(Number.parseInt(group, 16));
  }
  return groups;
}

function parseIpv6(text: string): Uint8Array | null {
  let rest = text;
  const tail: number[] = [];
  // An embedded IPv4 tail (::ffff:10.0.0.1) stands for the last two groups.
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(rest);
  if (v4) {
    const bytes = parseIpv4(v4[2] as string);
    if (!bytes) return null;
    tail.push(((bytes[0] as number) << 8) | (bytes[1] as number));
    tail.push(((bytes[2] as number) << 8) | (bytes[3] as number));
    rest = (v4[1] as string).endsWith("::") ? (v4[1] as string) : (v4[1] as string).slice(0, -1);
  }
  const halves = rest.split("::");
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0] as string);
  const after = halves.length === 2 ? parseGroups(halves[1] as string) : [];
  if (!head || !after) return null;
  const given = head.length + after.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const groups = [...head, ...new Array(8 - given).fill(0), ...after, ...tail];
  const bytes = new Uint8Array(16);
  for (const [i, group] of groups.entries()) {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  }
  return bytes;
}

/**
 * Parses an IPv4 or IPv6 address; `null` for anything else. A zone id ("fe80::1%eth0") is not
 * part of the address and is refused here: callers decide what a scoped address means.
 */
export function parseAddress(text: string): ParsedAddress | null {
  if (text.includes(":")) {
    const bytes = parseIpv6(text);
    return bytes ? { family: 6, bytes } : null;
  }
  const bytes = parseIpv4(text);
  return bytes ? { family: 4, bytes } : null;
}

/** Why a subnet text is not one, or the subnet. A bare address is a one-address subnet. */
export function parseSubnet(text: string): Subnet | { error: string } {
  const trimmed = text.trim();
  const [addressText = "", lengthText, extra] = trimmed.split("/");
  if (extra !== undefined) return { error: `${trimmed} has more than one "/"` };
  const address = parseAddress(addressText);
  if (!address) return { error: `${addressText || "(empty)"} is not an IPv4 or IPv6 address` };
  const maxLength = address.family === 4 ? 32 : 128;
  if (lengthText !== undefined && !/^\d{1,3}$/.test(lengthText)) {
    return { error: `${trimmed}: the prefix length must be a number from 0 to ${maxLength}` };
  }
  const prefixLength = lengthText === undefined ? maxLength : Number(lengthText);
  if (prefixLength > maxLength) {
    return { error: `${trimmed}: the prefix length must be a number from 0 to ${maxLength}` };
  }
  const network = networkOf(address.bytes, prefixLength);
  if (!sameBytes(network, address.bytes)) {
    return {
      error: `${trimmed} has bits set past its prefix; the subnet is ${formatAddress(address.family, network)}/${prefixLength}`,
    };
  }
  return { ...address, prefixLength, text: trimmed };
}

function networkOf(bytes: Uint8Array, prefixLength: number): Uint8Array {
  const network = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const bits = Math.max(0, Math.min(8, prefixLength - i * 8));
    network[i] = (bytes[i] as number) & ((0xff << (8 - bits)) & 0xff);
  }
  return network;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function formatAddress(family: 4 | 6, bytes: Uint8Array): string {
  if (family === 4) return bytes.join(".");
  const groups = Array.from({ length: 8 }, (_, i) =>
    (((bytes[i * 2] as number) << 8) | (bytes[i * 2 + 1] as number)).toString(16),
  );
  return groups.join(":").replace(/(^|:)0(:0)+(:|$)/, "::");
}

/** Whether the subnet holds the address (always false across families). */
export function subnetContains(subnet: Subnet, address: ParsedAddress): boolean {
  return (
    subnet.family === address.family &&
    sameBytes(networkOf(address.bytes, subnet.prefixLength), subnet.bytes)
  );
}

const hexOf = (bytes: Uint8Array) =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

/**
 * An address as fixed-width text whose order is the numeric order within a family: "4" + 8 hex
 * digits, "6" + 32. The database keeps it beside each address, so "every address inside a
 * subnet" is one range on an index (docs/behaviour.md §9.43); `null` for what is not an address.
 */
export function addressKey(text: string): string | null {
  const address = parseAddress(text);
  return address ? `${address.family}${hexOf(address.bytes)}` : null;
}

/** The first and last address keys inside a subnet: every address in it has a key between. */
export function subnetKeyRange(subnet: Subnet): { from: string; to: string } {
  const last = subnet.bytes.map((byte, i) => {
    const bits = Math.max(0, Math.min(8, subnet.prefixLength - i * 8));
    return byte | (0xff >> bits);
  });
  return {
    from: `${subnet.family}${hexOf(subnet.bytes)}`,
    to: `${subnet.family}${hexOf(last)}`,
  };
}
