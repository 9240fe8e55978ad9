// The list's one search box (docs/behaviour.md §9.2, §9.43): what a typed term can be, each form
// matched on a column or an index of its own, all forms ORed.
import { escapeLikePattern, type Prisma } from "@hyperlens/db";
import {
  NAMED_LOCATION_FIELDS,
  normalizeMac,
  parseSubnet,
  subnetKeyRange,
} from "@hyperlens/shared";
import { ValidationError } from "../errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Hex digits, dots and colons with at least one separator, then "/": meant as a subnet. */
const LOOKS_LIKE_SUBNET = /^[0-9a-f]*[.:][0-9a-f.:]*\//i;

/** Equal to `value`, any case, with no wildcards. */
export const anyCase = (value: string) => ({
  // TRAP: issue 20 — Prisma writes an any-case `equals` as ILIKE, so "pve_" matched pve1…pve9.
  equals: escapeLikePattern(value),
  mode: "insensitive" as const,
});

/** Guests with an accepted address inside the subnet; a malformed subnet is an error, not "none". */
function insideSubnet(search: string): Prisma.VirtualMachineWhereInput {
  const subnet = parseSubnet(search);
  // TRAP: docs/behaviour.md §9.43 — a typo like 10.0.0.0/33 must say so; an empty list reads as "no such guests".
  if ("error" in subnet)
    throw new ValidationError(`Not a subnet: ${subnet.error}.`, "filter.search");
  const { from, to } = subnetKeyRange(subnet);
  return { ips: { some: { isAccepted: true, addressKey: { gte: from, lte: to } } } };
}

/** The condition for a trimmed, non-empty search term. */
export function searchCondition(search: string): Prisma.VirtualMachineWhereInput {
  if (LOOKS_LIKE_SUBNET.test(search)) return insideSubnet(search);
  // nameSort holds lower(name), and the sync stores addresses lower-case: a plain LIKE on
  // either is several times cheaper than ILIKE.
  // TRAP: issue 20 — `contains` is LIKE: unescaped, a search for "%" listed every guest.
  const term = escapeLikePattern(search.toLowerCase());
  const forms: Prisma.VirtualMachineWhereInput[] = [
    { nameSort: { contains: term } },
    // The source's own id, whole, as people copy it from the source's UI: a Proxmox VMID (101),
    // a vCenter MoRef (vm-1049), a Director URN (urn:vcloud:vm:…) — docs/behaviour.md §9.2.
    { externalId: search },
    { tags: { has: search } },
    ...NAMED_LOCATION_FIELDS.map((column) => ({ [column]: anyCase(search) })),
  ];
  // A BIOS or instance UUID, whole: stored lower-case, typed in either case (Windows shows it
  // upper-case) — docs/behaviour.md §9.2.
  if (UUID.test(search)) {
    forms.push({ biosUuid: search.toLowerCase() }, { instanceUuid: search.toLowerCase() });
  }
  // Only a term that could be part of an address (hex digits, dots, colons) is looked up in the IPs.
  if (/^[0-9a-f.:]+$/i.test(search)) {
    forms.push({ ips: { some: { address: { contains: term }, isAccepted: true } } });
  }
  // NICs store the colon form: any common way of writing a MAC finds it (docs/behaviour.md §9.43).
  const mac = normalizeMac(search);
  if (mac) forms.push({ nics: { some: { mac } } });
  return { OR: forms };
}
