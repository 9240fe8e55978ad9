// The outbound address policy: which resolved addresses the door may connect to. A connection's
// address is typed by an administrator, so without it Test and sync would reach this machine's
// own services (loopback) and the cloud metadata endpoint (169.254.169.254). Private ranges stay
// allowed: hypervisors live there.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { lookup as dnsLookupAsync } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { buildConnector } from "undici";

/** Why an address is refused as a hypervisor target. */
export type RefusedTargetKind = "loopback" | "link-local" | "unspecified";

/** What the door may connect to; the default (`allowLoopbackTargets` false) refuses loopback. */
export interface TargetAddressPolicy {
  /**
   * Allow loopback, link-local and unspecified addresses (labs, demo stand-ins, tests). Off by
   * default; the server turns it on only with HYPERLENS_ALLOW_LOOPBACK_TARGETS=1.
   */
  allowLoopbackTargets: boolean;
}

// IPv4-mapped IPv6 (::ffff:127.0.0.1) is matched by BlockList against the IPv4 rules; the
// deprecated IPv4-compatible form (::127.0.0.1) is listed explicitly.
const RANGES: readonly [RefusedTargetKind, string, number, "ipv4" | "ipv6"][] = [
  ["loopback", "127.0.0.0", 8, "ipv4"],
  ["loopback", "::1", 128, "ipv6"],
  ["loopback", "::7f00:0", 104, "ipv6"],
  ["link-local", "169.254.0.0", 16, "ipv4"],
  ["link-local", "fe80::", 10, "ipv6"],
  ["link-local", "::a9fe:0", 112, "ipv6"],
  ["unspecified", "0.0.0.0", 8, "ipv4"],
  ["unspecified", "::", 104, "ipv6"],
];

const BLOCKS = new Map<RefusedTargetKind, BlockList>();
for (const [kind, network, prefix, family] of RANGES) {
  const list = BLOCKS.get(kind) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  BLOCKS.set(kind, list);
}

/** The kind of refused range `address` (an IP literal, brackets allowed) lies in, else undefined. */
export function refusedTargetKind(address: string): RefusedTargetKind | undefined {
  const ip = address.replace(/^\[|\]$/g, "");
  const family = isIP(ip);
  if (family === 0) return undefined;
  for (const [kind, list] of BLOCKS) {
    if (list.check(ip, family === 6 ? "ipv6" : "ipv4")) return kind;
  }
  return undefined;
}

/** Thrown (to undici, then mapped to a `config` HyperError) when the policy refuses an address. */
export class TargetRefusedError extends Error {
  override readonly name = "TargetRefusedError";
  readonly code = "HYPERLENS_TARGET_REFUSED";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: RefusedTargetKind,
  ) {
    super(refusalMessage(host, address, kind));
  }
}

/** The one wording of a refusal, at save time and at connect time. */
export function refusalMessage(host: string, address: string, kind: RefusedTargetKind): string {
  const resolved = host.replace(/^\[|\]$/g, "") === address ? "" : ` (resolves to ${address})`;
  return `the address ${host}${resolved} is a ${kind} address; Hyperlens does not connect to loopback, link-local or unspecified addresses unless the server is started with HYPERLENS_ALLOW_LOOPBACK_TARGETS=1 (labs only)`;
}

/** The first refusal among `addresses` under `policy`, or undefined when all may be reached. */
export function firstRefusal(
  host: string,
  addresses: readonly string[],
  policy: TargetAddressPolicy,
): TargetRefusedError | undefined {
  if (policy.allowLoopbackTargets) return undefined;
  for (const address of addresses) {
    const kind = refusedTargetKind(address);
    if (kind) return new TargetRefusedError(host, address, kind);
  }
  return undefined;
}

/**
 * Save-time check of a connection's address: the host name resolved now, each address checked.
 * Returns the message, or null. A name that does not resolve here is not refused: it may resolve
 * where the sync runs, and the connect-time check sees whatever it resolves to then.
 */
export async function checkTargetUrl(
  url: string,
  policy: TargetAddressPolicy,
): Promise<string | null> {
  if (policy.allowLoopbackTargets) return null;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null; // checkHttpsUrl reports a URL that does not parse.
  }
  const literal = host.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(literal) !== 0) addresses = [literal];
  else {
    try {
      addresses = (await dnsLookupAsync(literal, { all: true, verbatim: true })).map(
        (entry) => entry.address,
      );
    } catch {
      return null;
    }
  }
  const refusal = firstRefusal(host, addresses, policy)?.message;
  return refusal ? `${refusal.charAt(0).toUpperCase()}${refusal.slice(1)}.` : null;
}

type ConnectOptions = buildConnector.BuildOptions;

/**
 * An undici connector that checks the address it actually connects to: IP literals before the
 * socket opens, names in the socket's own DNS lookup (so a name re-pointed at loopback after the
 * save — DNS rebinding — is refused too, and no second lookup can disagree with the first).
 */
export function guardedConnector(
  options: ConnectOptions,
  policy: TargetAddressPolicy,
): buildConnector.connector {
  if (policy.allowLoopbackTargets) return buildConnector(options);
  const connect = buildConnector({ ...options, lookup: guardedLookup(policy) } as ConnectOptions);
  return (target, callback) => {
    // TRAP: outbound policy (docs/operations.md) — net.connect skips `lookup` for IP literals.
    const refusal = firstRefusal(
      target.hostname,
      isIP(target.hostname) ? [target.hostname] : [],
      policy,
    );
    if (refusal) {
      callback(refusal, null);
      return;
    }
    return connect(target, callback);
  };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

function guardedLookup(policy: TargetAddressPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, entries) => {
      if (error) {
        callback(error, options.all ? [] : "");
        return;
      }
      const refusal = firstRefusal(
        hostname,
        entries.map((entry) => entry.address),
        policy,
      );
      if (refusal) {
        callback(refusal as NodeJS.ErrnoException, options.all ? [] : "");
        return;
      }
      const first = entries[0];
      if (options.all) callback(null, entries);
      else callback(null, first?.address ?? "", first?.family);
    });
  };
}

/** Whether `error` (or its cause chain) is a refusal by the outbound address policy. */
export function findTargetRefusal(error: unknown, depth = 0): TargetRefusedError | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  if (error instanceof TargetRefusedError) return error;
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner)) {
    for (const item of inner) {
      const found = findTargetRefusal(item, depth + 1);
      if (found) return found;
    }
  }
  return findTargetRefusal((error as { cause?: unknown }).cause, depth + 1);
}
