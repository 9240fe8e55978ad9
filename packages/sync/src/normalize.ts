import type { NeutralIp, NeutralVm, ReportedAddress } from "@hyperlens/shared";

const byKey = <T extends { key: string }>(a: T, b: T) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/** The identity of an address row: the database allows one per (vm, address, interface). */
export function ipIdentity(ip: Pick<NeutralIp, "address" | "interfaceName">): string {
  return `${ip.address}|${ip.interfaceName ?? ""}`;
}

function uniqueBy<T>(items: T[], identity: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(identity(item))) seen.set(identity(item), item);
  return [...seen.values()];
}

/**
 * A report in one canonical form: addresses lower-case (RFC 5952, so "FE80::1" and "fe80::1" are
 * one), one per (address, interface) as the database allows, in the order reported — the primary
 * rule's last tie-break.
 */
export function normalizeReported(reported: readonly ReportedAddress[]): ReportedAddress[] {
  return uniqueBy(
    reported.map((entry) => {
      const address = entry.address.toLowerCase();
      return address === entry.address ? entry : { ...entry, address };
    }),
    ipIdentity,
  );
}

/**
 * A VM in one canonical form: children sorted and de-duplicated by their database keys, MACs and
 * reported addresses lower-case, tags sorted. Two reads of an unchanged guest normalize to equal
 * records. What rules made of the report (`ips`, `primaryAddress`) is left out: the engine judges
 * the report itself when it writes the guest (addresses.ts).
 */
export function normalizeVm(vm: NeutralVm): NeutralVm {
  const { ips: _, primaryAddress: __, ...read } = vm;
  return {
    ...read,
    tags: [...new Set(vm.tags)].sort(),
    nics: uniqueBy(vm.nics, (nic) => nic.key)
      .map((nic) => (nic.mac ? { ...nic, mac: nic.mac.toLowerCase() } : nic))
      .sort(byKey),
    // TRAP: docs/behaviour.md §10 — one address per (vm, address, interface); a duplicate would abort the chunk.
    // Lower-case (RFC 5952) so an address search can use LIKE, and so "FE80::1" and "fe80::1"
    // are one row.
    reportedAddresses: normalizeReported(vm.reportedAddresses),
    disks: uniqueBy(vm.disks, (disk) => disk.key).sort(byKey),
  };
}
