// What an adapter hands the rules stage (docs/behaviour.md §10.9): every address a source reported
// for a guest, raw. The sync judges the report by the connection's own rules; the adapters never
// decide which addresses count.
import type { IpOrigin, NeutralVm } from "../inventory.ts";
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
 * A guest's addresses as the shipped rules judge them: what the sync makes of a report on a
 * connection that keeps the shipped rules (the adapters' tests check their reports by it).
 */
export function judgedByShippedRules(
  reported: readonly ReportedAddress[],
  nics: readonly RuleNic[],
): AddressOutcome {
  return applyAddressRules(reported, nics, shippedAddressRules());
}

/**
 * A guest as the sync stores it on a connection that keeps the shipped rules: its report judged
 * into `ips` and `primaryAddress` (the adapters' tests check what their guests become by it).
 */
export function withShippedJudgement(vm: NeutralVm): NeutralVm & AddressOutcome {
  return { ...vm, ...judgedByShippedRules(vm.reportedAddresses, vm.nics) };
}
