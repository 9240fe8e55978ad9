// Which addresses the guest agent reported belong to the VM (docs/behaviour.md §3): only those on an interface
// whose MAC is one of the VM's configured NICs. Everything else is kept as rejected, with the
// reason, so an administrator can see why an address is missing (docs/behaviour.md §10 explained IPs).
import { localAddressReason, type NeutralIp, normalizeMac } from "@hyperlens/shared";
import type { GuestInterface } from "../parse/agent-interfaces.ts";

/** A configured NIC: its config key and MAC. */
export interface ConfiguredNic {
  key: string;
  mac: string | null;
}

const ZERO_MAC = "00:00:00:00:00:00";

function interfaceProblem(name: string, mac: string | null): string {
  if (name === "lo" || mac === ZERO_MAC) return `${name}: loopback interface`;
  if (!mac) return `${name}: reports no MAC address, so it cannot be matched to a NIC of this VM`;
  return `${name}: MAC ${mac} is not a NIC of this VM`;
}

/** Splits agent-reported addresses into accepted ones (on the VM's NICs) and rejected ones. */
export function selectGuestIps(
  interfaces: readonly GuestInterface[],
  nics: readonly ConfiguredNic[],
  origin: NeutralIp["origin"] = "AGENT",
): NeutralIp[] {
  const nicByMac = new Map(nics.flatMap((nic) => (nic.mac ? [[nic.mac, nic.key] as const] : [])));
  return interfaces.flatMap((iface) => {
    const mac = iface.mac ? normalizeMac(iface.mac) : null;
    // TRAP: docs/behaviour.md §3 — only the VM's own NICs count; docker0, veth… and lo would invent addresses.
    const nicKey = mac ? nicByMac.get(mac) : undefined;
    return iface.addresses.map((a): NeutralIp => {
      const base = {
        address: a.address,
        origin,
        interfaceName: iface.name,
        ...(a.prefix === null ? {} : { prefixLength: a.prefix }),
      };
      if (nicKey === undefined)
        return { ...base, isAccepted: false, rejectReason: interfaceProblem(iface.name, mac) };
      const problem = localAddressReason(a.address);
      return problem
        ? { ...base, nicKey, isAccepted: false, rejectReason: `${iface.name}: ${problem}` }
        : { ...base, nicKey, isAccepted: true };
    });
  });
}
