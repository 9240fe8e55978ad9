// The rules stage (docs/behaviour.md §10.9): from every address a source reported for a
// guest, which are the guest's, which one is its primary, and for each rejected one the rule that
// rejected it. Pure: the sync applies it to what it read, a rules change to what is stored.
import type { IpOrigin, NeutralIp } from "../inventory.ts";
import { normalizeMac } from "../mac.ts";
import {
  englishText,
  type ServerText,
  type ServerTextValue,
  serverText,
} from "../server-text/server-text.ts";
import { type ParsedAddress, parseAddress, subnetContains } from "./ip-math.ts";
import type { CompiledAddressRules } from "./rules.ts";

/** The rule that rejected an address. LOOPBACK and INVALID_ADDRESS cannot be turned off. */
export const ADDRESS_REJECT_RULES = [
  "INVALID_ADDRESS",
  "LOOPBACK",
  "IGNORED_INTERFACE",
  "UNMATCHED_MAC",
  "LINK_LOCAL",
  "IGNORED_SUBNET",
  "NOT_PERMITTED_SUBNET",
] as const;
export type AddressRejectRule = (typeof ADDRESS_REJECT_RULES)[number];

/**
 * One address as the source reported it, before any rule: the raw interface data a sync keeps
 * per guest so rules can be applied again without asking the hypervisor.
 */
export interface ReportedAddress {
  address: string;
  prefixLength?: number;
  origin: IpOrigin;
  /**
   * "config": the hypervisor's configuration declares it (static config, Director's allocation),
   * tied to nicKey. "guest": the guest agent, VMware Tools or the container host reported it on an
   * interface, which must be one of the VM's NICs.
   */
  reportedBy: "config" | "guest";
  /** The interface as the guest named it ("eth0", "docker0"). */
  interfaceName?: string;
  /** The reporting interface's MAC, as reported. */
  mac?: string;
  /**
   * The NIC the source ties the address to: the config slot for "config"; for "guest", the virtual
   * device the source says backs the interface (VMware Tools), whose MAC must then match.
   */
  nicKey?: string;
  /** "guest" only: the source says no virtual NIC backs the interface (VMware Tools' `nic` absent). */
  isUnbacked?: boolean;
  /**
   * Stored only: a guest-reported address kept from an earlier read while the agent is silent
   * (docs/behaviour.md §10.2), judged by the rules like any other.
   */
  isLastKnown?: boolean;
}

/** A NIC of the VM as the rules stage needs it. */
export interface RuleNic {
  key: string;
  mac?: string | null;
}

/** What the rules made of a guest's reported addresses. */
export interface AddressOutcome {
  ips: NeutralIp[];
  /** The accepted address the primary rule picked; absent when none was accepted. */
  primaryAddress?: string;
}

interface Rejection {
  rule: AddressRejectRule;
  text: ServerText;
}

const ZERO_MAC = "00:00:00:00:00:00";

function labelOf(reported: ReportedAddress, mac: string | null): ServerTextValue {
  if (reported.interfaceName) return reported.interfaceName;
  if (reported.reportedBy === "config" && reported.nicKey)
    return serverText("addressLabelNic", { nic: reported.nicKey });
  return mac ? serverText("addressLabelMac", { mac }) : serverText("addressLabelNoMac", {});
}

function isLoopback(address: ParsedAddress): boolean {
  const b = address.bytes;
  return address.family === 4 ? b[0] === 127 : b.every((byte, i) => byte === (i === 15 ? 1 : 0));
}

function isLinkLocal(address: ParsedAddress): boolean {
  const b = address.bytes;
  return address.family === 4
    ? b[0] === 169 && b[1] === 254
    : b[0] === 0xfe && ((b[1] as number) & 0xc0) === 0x80;
}

/** The NIC a guest-reported interface is on, or why it is on none. */
function guestNic(
  reported: ReportedAddress,
  mac: string | null,
  label: ServerTextValue,
  nics: readonly RuleNic[],
): { nicKey: string } | Rejection {
  const unmatched = (text: ServerText): Rejection => ({ rule: "UNMATCHED_MAC", text });
  if (reported.isUnbacked) return unmatched(serverText("addressUnbacked", { label }));
  if (reported.nicKey !== undefined) {
    const nic = nics.find((n) => n.key === reported.nicKey);
    if (!nic) {
      return unmatched(serverText("addressDeviceNotNic", { label, device: reported.nicKey }));
    }
    if (!mac) return unmatched(serverText("addressNoMacForNic", { label, nic: nic.key }));
    const nicMac = normalizeMac(nic.mac);
    if (nicMac !== mac) {
      return unmatched(
        serverText("addressMacNotNics", { label, nic: nic.key, nicMac: nicMac ?? "none" }),
      );
    }
    return { nicKey: nic.key };
  }
  if (!mac) return unmatched(serverText("addressNoMac", { label }));
  const nic = nics.find((n) => normalizeMac(n.mac) === mac);
  return nic ? { nicKey: nic.key } : unmatched(serverText("addressMacUnknown", { label, mac }));
}

function subnetRejection(
  parsed: ParsedAddress,
  label: ServerTextValue,
  compiled: CompiledAddressRules,
): Rejection | undefined {
  const ignored = compiled.ignoredSubnets.find((s) => subnetContains(s, parsed));
  if (ignored) {
    const text = serverText("addressIgnoredSubnet", { label, subnet: ignored.text });
    return { rule: "IGNORED_SUBNET", text };
  }
  const permitted = compiled.permittedSubnets;
  if (permitted.length && !permitted.some((s) => subnetContains(s, parsed))) {
    const subnets = permitted.map((s) => s.text).join(", ");
    return {
      rule: "NOT_PERMITTED_SUBNET",
      text: serverText("addressNotPermitted", { label, subnets }),
    };
  }
  return undefined;
}

/** Judges one reported address; `nicKey` is the NIC it is on, when known. */
function judge(
  reported: ReportedAddress,
  nics: readonly RuleNic[],
  compiled: CompiledAddressRules,
): { nicKey?: string; rejection?: Rejection } {
  const mac = normalizeMac(reported.mac);
  const label = labelOf(reported, mac);
  const [addressText = "", zone] = reported.address.split("%");
  const parsed = parseAddress(addressText);
  const configNic = reported.reportedBy === "config" ? reported.nicKey : undefined;
  const reject = (rule: AddressRejectRule, text: ServerText, nicKey = configNic) => ({
    ...(nicKey === undefined ? {} : { nicKey }),
    rejection: { rule, text },
  });
  if (!parsed) {
    const text = serverText("addressInvalid", { label, address: reported.address });
    return reject("INVALID_ADDRESS", text);
  }
  let nicKey = configNic;
  if (reported.reportedBy === "guest") {
    if (reported.interfaceName === "lo" || mac === ZERO_MAC) {
      return reject("LOOPBACK", serverText("addressLoopbackInterface", { label }));
    }
    const name = reported.interfaceName ?? "";
    const pattern = compiled.ignoredInterfaces.find((p) => name && p.regex.test(name));
    if (pattern) {
      const text = serverText("addressIgnoredInterface", { label, pattern: pattern.pattern });
      return reject("IGNORED_INTERFACE", text);
    }
    const onNic = guestNic(reported, mac, label, nics);
    if ("rule" in onNic) {
      if (!compiled.rules.keepUnmatchedMac) return { rejection: onNic };
    } else {
      nicKey = onNic.nicKey;
    }
  }
  if (isLoopback(parsed)) {
    return reject("LOOPBACK", serverText("addressLoopback", { label }), nicKey);
  }
  if (compiled.rules.dropLinkLocal && (zone !== undefined || isLinkLocal(parsed))) {
    const text = serverText("addressLinkLocal", { label, zone: zone ?? "none" });
    return reject("LINK_LOCAL", text, nicKey);
  }
  const bySubnet = subnetRejection(parsed, label, compiled);
  if (bySubnet) return reject(bySubnet.rule, bySubnet.text, nicKey);
  return nicKey === undefined ? {} : { nicKey };
}

/** Lower ranks first: the primary rule's order, ties kept in reported order. */
function primaryRank(
  reported: ReportedAddress,
  compiled: CompiledAddressRules,
): [number, number, number] {
  const parsed = parseAddress(reported.address.split("%")[0] ?? "");
  const preferred = parsed
    ? compiled.preferredSubnets.findIndex((s) => subnetContains(s, parsed))
    : -1;
  const { family, origin } = compiled.rules.primary;
  const isIpv6 = parsed?.family === 6;
  return [
    preferred === -1 ? compiled.preferredSubnets.length : preferred,
    (family === "IPV4_FIRST") === isIpv6 ? 1 : 0,
    (origin === "CONFIG_FIRST") === (reported.reportedBy === "guest") ? 1 : 0,
  ];
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (const [i, value] of a.entries()) {
    const difference = value - (b[i] as number);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Applies the rules to a guest's reported addresses (docs/behaviour.md §10.9). */
export function applyAddressRules(
  reported: readonly ReportedAddress[],
  nics: readonly RuleNic[],
  compiled: CompiledAddressRules,
): AddressOutcome {
  let primary: { reported: ReportedAddress; rank: [number, number, number] } | undefined;
  const ips = reported.map((r): NeutralIp => {
    const { nicKey, rejection } = judge(r, nics, compiled);
    const ip: NeutralIp = {
      address: r.address,
      origin: r.origin,
      isAccepted: rejection === undefined,
      ...(r.prefixLength === undefined ? {} : { prefixLength: r.prefixLength }),
      ...(r.interfaceName === undefined ? {} : { interfaceName: r.interfaceName }),
      ...(nicKey === undefined ? {} : { nicKey }),
      ...(rejection
        ? {
            rejectReason: englishText(rejection.text),
            rejectReasonText: rejection.text,
            rejectRule: rejection.rule,
          }
        : {}),
    };
    if (ip.isAccepted) {
      const rank = primaryRank(r, compiled);
      if (!primary || compareRanks(rank, primary.rank) < 0) primary = { reported: r, rank };
    }
    return ip;
  });
  const chosen = primary as { reported: ReportedAddress } | undefined;
  return chosen ? { ips, primaryAddress: chosen.reported.address } : { ips };
}
