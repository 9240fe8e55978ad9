// The filter of the unified list, turned into one Prisma `where` (the same for the page and the count).
import { escapeLikePattern, type Prisma } from "@hyperlens/db";
import { ValidationError } from "../errors.ts";
import { builder } from "./builder.ts";
import { ConnectionKindEnum } from "./connection.ts";
import { ConfirmationEnum, GuestKindEnum, PowerStateEnum } from "./inventory-enums.ts";
import { groupWhere, VirtualMachineGroupInput } from "./virtual-machine-group-key.ts";
import { anyCase, searchCondition } from "./vm-search.ts";

const MAX_TEXT = 200;

export const VirtualMachineFilter = builder.inputType("VirtualMachineFilter", {
  description: "All given conditions must hold; lists match any of their values.",
  fields: (t) => ({
    source: t.field({ type: [ConnectionKindEnum], required: false }),
    connectionId: t.globalIDList({ required: false, description: "Connection ids (global)." }),
    state: t.field({ type: [PowerStateEnum], required: false }),
    kind: t.field({ type: [GuestKindEnum], required: false }),
    confirmation: t.field({ type: [ConfirmationEnum], required: false }),
    nodeName: t.string({ required: false, description: "Proxmox node (exact, any case)." }),
    clusterName: t.string({ required: false }),
    datacenterName: t.string({ required: false }),
    hostName: t.string({ required: false }),
    orgName: t.string({ required: false, description: "Director organization." }),
    vdcName: t.string({ required: false, description: "Director VDC." }),
    search: t.string({
      required: false,
      description:
        "Substring of the name or of an IP address, any case; a subnet (10.10.0.0/24, fd00::/64): guests with an address inside, a malformed one is an error; a MAC in any common form (aa:bb:cc:dd:ee:ff, AA-BB-CC-DD-EE-FF, aabb.ccdd.eeff); a tag, whole; a node, cluster, datacenter, host, organization or VDC name, whole, any case; the source's own id, whole: Proxmox VMID, vCenter MoRef, Director URN; or a BIOS or instance UUID, whole, any case.",
    }),
    tags: t.stringList({ required: false, description: "Guests carrying any of these tags." }),
    guestOs: t.string({
      required: false,
      description: "Substring of the guest OS name or its raw code (RHEL_9_64), any case.",
    }),
    isTemplate: t.boolean({
      required: false,
      description: "true: templates only; false: machines only; absent: both.",
    }),
    changedSince: t.field({
      type: "DateTime",
      required: false,
      description:
        "Changed or removed after this time; removed guests come back as tombstones (removedAt set).",
    }),
    includeRemoved: t.boolean({
      required: false,
      description: "Also return tombstones of removed guests.",
    }),
    group: t.field({
      type: VirtualMachineGroupInput,
      required: false,
      description: "The guests of one group of virtualMachineGroups.",
    }),
  }),
});

type FilterInput = typeof VirtualMachineFilter.$inferInput;

function text(value: string | null | undefined, field: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed.length > MAX_TEXT)
    throw new ValidationError(`Use at most ${MAX_TEXT} characters.`, `filter.${field}`);
  return trimmed === "" ? undefined : trimmed;
}

const equalsAnyCase = (value: string | undefined) =>
  value === undefined ? undefined : anyCase(value);

const guestOsMatches = (value: string): Prisma.VirtualMachineWhereInput[] =>
  (["guestOs", "guestOsCode"] as const).map((column) => ({
    [column]: { contains: escapeLikePattern(value), mode: "insensitive" as const },
  }));

/**
 * Whether a filter lists live guests only (no tombstones) but not all of them: the live-name
 * index then holds every candidate, and entries the filter rejects are skipped in it.
 */
export function narrowsLiveGuests(filter: FilterInput | null | undefined): boolean {
  if (!filter || filter.includeRemoved || filter.changedSince) return false;
  const { includeRemoved: _removed, changedSince: _since, ...conditions } = filter;
  return Object.values(conditions).some((value) => value !== null && value !== undefined);
}

/** The Prisma condition for a filter; throws a ValidationError naming the field it rejects. */
export function buildVmWhere(
  filter: FilterInput | null | undefined,
): Prisma.VirtualMachineWhereInput {
  const f = filter ?? {};
  const and: Prisma.VirtualMachineWhereInput[] = [];
  const search = text(f.search, "search");
  const guestOs = text(f.guestOs, "guestOs");
  if (f.changedSince) {
    and.push({
      OR: [{ changedAt: { gt: f.changedSince } }, { removedAt: { gt: f.changedSince } }],
    });
  } else if (!f.includeRemoved) {
    and.push({ removedAt: null });
  }
  if (search) and.push(searchCondition(search));
  if (f.group) and.push(groupWhere(f.group.by, f.group.key ?? null));
  const connectionIds = f.connectionId?.map((id) => {
    if (id.typename !== "Connection")
      throw new ValidationError("Expected connection ids.", "filter.connectionId");
    return id.id;
  });
  return {
    AND: and,
    ...(f.source ? { source: { in: [...f.source] } } : {}),
    ...(connectionIds ? { connectionId: { in: connectionIds } } : {}),
    ...(f.state ? { state: { in: [...f.state] } } : {}),
    ...(f.kind ? { kind: { in: [...f.kind] } } : {}),
    ...(f.confirmation ? { confirmation: { in: [...f.confirmation] } } : {}),
    ...(f.tags?.length ? { tags: { hasSome: [...f.tags] } } : {}),
    ...(guestOs ? { OR: guestOsMatches(guestOs) } : {}),
    ...(typeof f.isTemplate === "boolean" ? { isTemplate: f.isTemplate } : {}),
    nodeName: equalsAnyCase(text(f.nodeName, "nodeName")),
    clusterName: equalsAnyCase(text(f.clusterName, "clusterName")),
    datacenterName: equalsAnyCase(text(f.datacenterName, "datacenterName")),
    hostName: equalsAnyCase(text(f.hostName, "hostName")),
    orgName: equalsAnyCase(text(f.orgName, "orgName")),
    vdcName: equalsAnyCase(text(f.vdcName, "vdcName")),
  };
}
