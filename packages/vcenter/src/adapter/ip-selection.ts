// Which addresses VMware Tools reported belong to the VM: only those on an interface backed by one
// of the VM's own virtual NICs (its `nic` device key) whose MAC matches that NIC. Everything else
// is kept as rejected, with the reason, so an administrator can see why an address is missing
// (docs/behaviour.md §10 explained IPs). Same rule as the Proxmox agent filter, with the same shared loopback
// and link-local check.
import { localAddressReason, type NeutralIp, normalizeMac } from "@hyperlens/shared";
import type { VcenterGuestInterface } from "../parse/guest-interfaces.ts";

/** A virtual NIC of the VM: its device key and MAC. */
export interface VmNic {
  key: string;
  mac: string | null;
}

function interfaceLabel(mac: string | null): string {
  return mac ? `interface with MAC ${mac}` : "interface without a MAC";
}

function interfaceProblem(
  iface: VcenterGuestInterface,
  mac: string | null,
  nicsByKey: Map<string, VmNic>,
): string | undefined {
  const label = interfaceLabel(mac);
  if (mac === "00:00:00:00:00:00") return `${label}: loopback interface`;
  if (iface.nic === null) {
    return `${label}: not backed by a virtual NIC of this VM (a guest-internal interface such as docker0)`;
  }
  const nic = nicsByKey.get(iface.nic);
  if (!nic) return `${label}: device ${iface.nic} is not a NIC of this VM`;
  if (!mac) return `${label}: reports no MAC address, so it cannot be matched to NIC ${iface.nic}`;
  if (nic.mac !== mac)
    return `${label}: MAC is not the one of NIC ${iface.nic} (${nic.mac ?? "none"})`;
  return undefined;
}

/** Splits Tools-reported addresses into accepted ones (on the VM's NICs) and rejected ones. */
export function selectGuestIps(
  interfaces: readonly VcenterGuestInterface[],
  nics: readonly VmNic[],
): NeutralIp[] {
  const nicsByKey = new Map(nics.map((nic) => [nic.key, { ...nic, mac: normalizeMac(nic.mac) }]));
  return interfaces.flatMap((iface) => {
    // MAC case differs between vCenter (lower) and some guests' reports (upper): compare normalized.
    const mac = normalizeMac(iface.macAddress);
    // TRAP: docs/behaviour.md §10 — only the VM's own NICs count; docker0, vEthernet and lo would invent addresses.
    const problem = interfaceProblem(iface, mac, nicsByKey);
    return iface.addresses.map((a): NeutralIp => {
      const base = {
        address: a.address,
        // TRAP: docs/behaviour.md §10 — every Tools address is AGENT, DHCP-leased or not: only AGENT addresses
        // are kept as last-known when Tools fall silent, anything else would be erased.
        origin: "AGENT" as const,
        ...(iface.nic === null ? {} : { interfaceName: `nic ${iface.nic}` }),
        ...(a.prefixLength === null ? {} : { prefixLength: a.prefixLength }),
      };
      if (problem !== undefined) return { ...base, isAccepted: false, rejectReason: problem };
      const nicKey = iface.nic ?? undefined;
      const bad = localAddressReason(a.address);
      return bad
        ? {
            ...base,
            nicKey,
            isAccepted: false,
            rejectReason: `${interfaceLabel(mac)}: ${bad}`,
          }
        : { ...base, nicKey, isAccepted: true };
    });
  });
}
