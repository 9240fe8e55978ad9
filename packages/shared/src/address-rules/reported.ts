// What an adapter hands the rules stage (docs/behaviour.md §10.9): every address a source reported
// for a guest, raw, and what the shipped rules make of it. The sync judges the same report again
// by the connection's own rules; the adapters never decide which addresses count.
import type { IpOrigin, NeutralIp } from "../inventory.ts";
import {
  type AddressOutcome,
  applyAddressRules,
  type ReportedAddress,
  type RuleNic,
} from "./apply.ts";
import { type CompiledAddressRules, compileAddressRules, DEFAULT_ADDRESS_RULES } from "./rules.ts";

/** One interface as a guest agent, VMware Tools or the container host reported it. */
export interface ReportedInterface {
  name?: string;
  mac?: string | null;
  /** The virtual NIC the source says backs it (VMware Tools' `nic`); null: none backs it. */
  nicKey?: string | null;
  addresses: { address: string; prefixLength?: number | null }[];
}

/** The guest-reported addresses of some interfaces, in the order reported. */
export function guestReportedAddresses(
  interfaces: readonly ReportedInterface[],
  origin: IpOrigin = "AGENT",
): ReportedAddress[] {
  return interfaces.flatMap((iface) =>
    iface.addresses.map(
      (a): ReportedAddress => ({
        address: a.address,
        origin,
        reportedBy: "guest",
        ...(a.prefixLength === null || a.prefixLength === undefined
          ? {}
          : { prefixLength: a.prefixLength }),
        ...(iface.name ? { interfaceName: iface.name } : {}),
        ...(iface.mac ? { mac: iface.mac } : {}),
        ...(iface.nicKey === null ? { isUnbacked: true } : {}),
        ...(iface.nicKey ? { nicKey: iface.nicKey } : {}),
      }),
    ),
  );
}

let shipped: CompiledAddressRules | undefined;

/** The shipped rules, compiled once. */
export function shippedAddressRules(): CompiledAddressRules {
  shipped ??= compileAddressRules(DEFAULT_ADDRESS_RULES);
  return shipped;
}

/**
 * A guest's addresses as the shipped rules judge them: what an adapter reports as `ips` beside
 * the raw `reportedAddresses`, so a snapshot reads right on its own.
 */
export function judgedByShippedRules(
  reported: readonly ReportedAddress[],
  nics: readonly RuleNic[],
): { ips: NeutralIp[]; reportedAddresses: ReportedAddress[]; primaryAddress?: string } {
  const outcome: AddressOutcome = applyAddressRules(reported, nics, shippedAddressRules());
  return { ...outcome, reportedAddresses: [...reported] };
}
