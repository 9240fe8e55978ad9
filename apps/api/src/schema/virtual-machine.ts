// The unified inventory (docs/behaviour.md §6): one interface for every VM and container, whatever its source,
// with source-specific fields on ProxmoxGuest, VcdVm and VcenterVm. Lists page by cursor so rows
// added while a client pages through cause neither duplicates nor gaps.
import type { Prisma, PrismaClient } from "@hyperlens/db";
import {
  type AddressRejectRule,
  effectiveIpConfirmedAt,
  effectiveLastSeenAt,
} from "@hyperlens/shared";
import type { Viewer } from "../auth/viewer.ts";
import { visibleVms } from "../auth/visibility.ts";
import { builder } from "./builder.ts";
import { ConnectionKindEnum, ConnectionNode } from "./connection.ts";
import { NODE_LOOKUP } from "./global-ids.ts";
import {
  agentMissingReason,
  GUEST_REPORT_SELECT,
  GuestValuesRef,
  MissingReasonRef,
} from "./guest-values.ts";
import {
  AddressRejectRuleEnum,
  ConfirmationEnum,
  GuestKindEnum,
  IpOriginEnum,
  PowerStateEnum,
  VmEventTypeEnum,
} from "./inventory-enums.ts";
import { InventoryMemo, RequestVersions } from "./inventory-memo.ts";
import { LocalizedMessageRef, storedLocalizedMessage } from "./localized-message.ts";
import { buildVmWhere, narrowsLiveGuests, VirtualMachineFilter } from "./virtual-machine-filter.ts";
import {
  buildVmOrder,
  isNameOrder,
  ordersByInventoryOnly,
  VirtualMachineOrder,
} from "./virtual-machine-order.ts";
import { CountAlongside, findVmPage, type PageIds, selectsField } from "./virtual-machine-page.ts";

/** The columns a guest's location is stored in; VmLocation is read from exactly these. */
const LOCATION_SELECT = {
  nodeName: true,
  clusterName: true,
  datacenterName: true,
  hostName: true,
  orgName: true,
  vdcName: true,
  vappName: true,
} as const;

const VmLocation = builder
  .objectRef<{ [column in keyof typeof LOCATION_SELECT]: string | null }>("VmLocation")
  .implement({
    description:
      "Where a guest runs: node/cluster (Proxmox), org/VDC/vApp (Director), datacenter/cluster/host (vCenter).",
    fields: (t) => ({
      nodeName: t.string({ nullable: true, resolve: (vm) => vm.nodeName }),
      clusterName: t.string({ nullable: true, resolve: (vm) => vm.clusterName }),
      datacenterName: t.string({ nullable: true, resolve: (vm) => vm.datacenterName }),
      hostName: t.string({ nullable: true, resolve: (vm) => vm.hostName }),
      orgName: t.string({ nullable: true, resolve: (vm) => vm.orgName }),
      vdcName: t.string({ nullable: true, resolve: (vm) => vm.vdcName }),
      vappName: t.string({ nullable: true, resolve: (vm) => vm.vappName }),
    }),
  });

/** What effectiveLastSeenAt reads of a guest: its own columns and its connection's last success. */
const GUEST_LAST_SEEN_SELECT = {
  lastSeenAt: true,
  confirmation: true,
  removedAt: true,
  connection: { select: { lastSuccessAt: true } },
} as const;

builder.prismaObject("IpAddress", {
  description:
    "An address of a guest. Rejected ones carry the reason they do not count (docs/behaviour.md §10).",
  fields: (t) => ({
    address: t.exposeString("address"),
    prefixLength: t.exposeInt("prefixLength", { nullable: true }),
    origin: t.field({ type: IpOriginEnum, resolve: (ip) => ip.origin }),
    interfaceName: t.string({ nullable: true, resolve: (ip) => ip.interfaceName || null }),
    nicKey: t.exposeString("nicKey", { nullable: true }),
    isAccepted: t.exposeBoolean("isAccepted"),
    rejectReason: t.exposeString("rejectReason", { nullable: true }),
    rejectReasonText: t.field({
      type: LocalizedMessageRef,
      nullable: true,
      description:
        "rejectReason as a code and parameters, for showing it in the viewer's language; null for an accepted address and for one rejected before codes were stored.",
      select: { rejectReasonText: true },
      resolve: (ip) => storedLocalizedMessage(ip.rejectReasonText),
    }),
    rejectRule: t.field({
      type: AddressRejectRuleEnum,
      nullable: true,
      description: "The address rule that rejected it; null for an accepted address.",
      resolve: (ip) => ip.rejectRule as AddressRejectRule | null,
    }),
    lastConfirmedAt: t.field({
      type: "DateTime",
      description:
        "When a sync last saw it: with its guest while the guest's reads hold it, else (last-known) the last read that did.",
      select: {
        lastConfirmedAt: true,
        isLastKnown: true,
        vm: { select: GUEST_LAST_SEEN_SELECT },
      },
      resolve: (ip) => effectiveIpConfirmedAt(ip, ip.vm, ip.vm.connection),
    }),
  }),
});

builder.prismaObject("Nic", {
  fields: (t) => ({
    key: t.exposeString("key"),
    label: t.exposeString("label", {
      nullable: true,
      description:
        'The source UI\'s name for the NIC ("Network adapter 1"); null where the key is that name.',
    }),
    mac: t.exposeString("mac", { nullable: true }),
    network: t.exposeString("network", { nullable: true }),
    model: t.exposeString("model", { nullable: true }),
    isConnected: t.exposeBoolean("isConnected", { nullable: true }),
    vlan: t.exposeInt("vlan", { nullable: true }),
  }),
});

builder.prismaObject("Disk", {
  fields: (t) => ({
    key: t.exposeString("key"),
    label: t.exposeString("label", {
      nullable: true,
      description:
        'The source UI\'s name for the disk ("Hard disk 1"); null where the key is that name.',
    }),
    capacityBytes: t.float({
      nullable: true,
      resolve: (d) => (d.capacityBytes === null ? null : Number(d.capacityBytes)),
    }),
    storage: t.exposeString("storage", { nullable: true }),
    busType: t.exposeString("busType", { nullable: true }),
  }),
});

builder.prismaObject("VmEvent", {
  description:
    "One step in a guest's history: appeared, changed (which fields), moved, removed, restored.",
  fields: (t) => ({
    type: t.field({ type: VmEventTypeEnum, resolve: (e) => e.type }),
    at: t.expose("at", { type: "DateTime" }),
    changes: t.field({
      type: "JSON",
      description:
        "{ field: { from, to } }, or the removal reason: { reason } (and reasonText, the reason as a stored code and parameters, where the sync wrote one).",
      resolve: (e) => e.changes,
    }),
    syncRunId: t.exposeID("syncRunId", { nullable: true }),
  }),
});

const numberOf = (value: bigint | null) => (value === null ? null : Number(value));

// Select mode: a list page reads only the columns its fields need (the `details` JSON alone can be
// kilobytes per guest). Every field that reads a column through `resolve` declares it in `select`;
// the variants select what the interface needs, since selections are not inherited.
// The list's few narrow columns are read with every row instead: a field that declares a `select`
// makes Pothos look up, for each row, how that row was loaded — at 100 rows a page, a fifth of a
// request's CPU (bench/inventory-list.ts). Fields reading only these columns declare none.
const BASE_SELECT = {
  id: true,
  source: true,
  name: true,
  kind: true,
  state: true,
  cpuCount: true,
  memoryBytes: true,
  diskTotalBytes: true,
  confirmation: true,
  ...LOCATION_SELECT,
} as const;
export const VirtualMachineInterface = builder.prismaInterface("VirtualMachine", {
  name: "VirtualMachine",
  description: "A VM or container from any source, in one shape.",
  interfaces: [builder.nodeInterfaceRef()],
  select: BASE_SELECT,
  fields: (t) => ({
    id: t.id({ resolve: (vm) => vmGlobalId(vm) }),
    name: t.string({ resolve: (vm) => vm.name }),
    source: t.field({ type: ConnectionKindEnum, resolve: (vm) => vm.source }),
    connection: t.relation("connection", { type: ConnectionNode }),
    kind: t.field({ type: GuestKindEnum, resolve: (vm) => vm.kind }),
    state: t.field({ type: PowerStateEnum, resolve: (vm) => vm.state }),
    cpuCount: t.int({ nullable: true, resolve: (vm) => vm.cpuCount }),
    memoryBytes: t.float({ nullable: true, resolve: (vm) => numberOf(vm.memoryBytes) }),
    diskTotalBytes: t.float({ nullable: true, resolve: (vm) => numberOf(vm.diskTotalBytes) }),
    guestOs: t.exposeString("guestOs", {
      nullable: true,
      description:
        'The guest OS as the source\'s UI names it ("Red Hat Enterprise Linux 9 (64-bit)"); an OS code no table knows stays as the source sent it.',
    }),
    primaryAddress: t.exposeString("primaryAddress", {
      nullable: true,
      description:
        "The accepted address the primary-address rule picks (docs/behaviour.md §10.9): what exports reach the guest at.",
    }),
    guestOsCode: t.exposeString("guestOsCode", {
      nullable: true,
      description: "The source's raw OS code: vCenter guest_OS (RHEL_9_64), Proxmox ostype (l26).",
    }),
    biosUuid: t.exposeString("biosUuid", {
      nullable: true,
      description:
        "The SMBIOS UUID the guest sees, lower-case: vCenter identity.bios_uuid, Proxmox smbios1 uuid.",
    }),
    instanceUuid: t.exposeString("instanceUuid", {
      nullable: true,
      description: "vCenter's instance UUID, lower-case.",
    }),
    isTemplate: t.exposeBoolean("isTemplate", {
      description: "A template (Proxmox), not a running machine; left out of VM counts by default.",
    }),
    tags: t.exposeStringList("tags"),
    location: t.field({ type: VmLocation, resolve: (vm) => vm }),
    nics: t.relation("nics", { query: { orderBy: { key: "asc" } } }),
    ipAddresses: t.relation("ips", {
      description:
        "Addresses that count; with includeRejected, also those reported but rejected, with reasons.",
      args: { includeRejected: t.arg.boolean({ required: false, defaultValue: false }) },
      query: (args) => ({
        where: args.includeRejected ? {} : { isAccepted: true },
        orderBy: [{ isAccepted: "desc" as const }, { address: "asc" as const }],
      }),
    }),
    disks: t.relation("disks", { query: { orderBy: { key: "asc" } } }),
    guestValues: t.field({
      type: GuestValuesRef,
      description:
        "Hostname, OS and kernel as the guest agent / VMware Tools report them, kept last-known when they go silent.",
      select: GUEST_REPORT_SELECT,
      resolve: (vm) => vm,
    }),
    guestAgentMissingReason: t.field({
      type: MissingReasonRef,
      nullable: true,
      description:
        "Why the guest agent / VMware Tools gave nothing in the last read (agent addresses then are last-known or missing); null when they reported.",
      select: GUEST_REPORT_SELECT,
      resolve: (vm) => agentMissingReason(vm),
    }),
    details: t.field({
      type: "JSON",
      description: "The common detail layout plus raw source fields.",
      select: { details: true },
      resolve: (vm) => vm.details,
    }),
    confirmation: t.field({ type: ConfirmationEnum, resolve: (vm) => vm.confirmation }),
    firstSeenAt: t.expose("firstSeenAt", { type: "DateTime" }),
    lastSeenAt: t.field({
      type: "DateTime",
      description: "When a sync last confirmed this guest.",
      select: GUEST_LAST_SEEN_SELECT,
      resolve: (vm) => effectiveLastSeenAt(vm, vm.connection),
    }),
    changedAt: t.expose("changedAt", { type: "DateTime" }),
    removedAt: t.expose("removedAt", {
      type: "DateTime",
      nullable: true,
      description: "Set on tombstones.",
    }),
    removedReason: t.exposeString("removedReason", { nullable: true }),
    history: t.relation("events", {
      description: "Newest first.",
      args: { first: t.arg.int({ required: false, defaultValue: 50 }) },
      query: (args) => ({
        orderBy: { at: "desc" as const },
        take: Math.min(Math.max(args.first ?? 50, 1), 500),
      }),
    }),
  }),
  resolveType: (vm) => VARIANT_BY_SOURCE[vm.source],
});

const VARIANT_BY_SOURCE = { PROXMOX: "ProxmoxGuest", VCD: "VcdVm", VCENTER: "VcenterVm" } as const;

/** The global id of a VM: its variant's type name and its row id. */
export function vmGlobalId(vm: { id: string; source: keyof typeof VARIANT_BY_SOURCE }): string {
  return Buffer.from(`${VARIANT_BY_SOURCE[vm.source]}:${vm.id}`).toString("base64");
}

const detail = (details: Prisma.JsonValue, section: string, key: string): string | null => {
  const value = (details as Record<string, Record<string, unknown> | undefined> | null)?.[
    section
  ]?.[key];
  return typeof value === "string" ? value : null;
};

const viewScope = { VIEW_INVENTORY: true } as const;

/** What every source's VirtualMachine variant shares: its id, base columns, scope and interface. */
const sourceVariant = (source: keyof typeof VARIANT_BY_SOURCE) => ({
  ...NODE_LOOKUP,
  // TRAP: issue 20 — the variants share one table: a ProxmoxGuest id naming a vCenter VM's row
  // would load that VM and serve it as a ProxmoxGuest. An id names a row of its own source only.
  // TRAP: docs/behaviour.md §7.9 — node(id) would show a guest of a connection the viewer is not granted.
  findUnique: (id: string, ctx: { viewer: Viewer | null }) => ({
    id,
    source,
    AND: [visibleVms(ctx.viewer)],
  }),
  select: BASE_SELECT,
  authScopes: viewScope,
  interfaces: [VirtualMachineInterface],
});

builder.prismaNode("VirtualMachine", {
  variant: "ProxmoxGuest",
  ...sourceVariant("PROXMOX"),
  description: "A Proxmox VE QEMU VM or LXC container.",
  fields: (t) => ({
    vmid: t.int({ select: { externalId: true }, resolve: (vm) => Number(vm.externalId) }),
    guestType: t.string({
      description: "qemu or lxc",
      resolve: (vm) => (vm.kind === "CONTAINER" ? "lxc" : "qemu"),
    }),
    nodeName: t.string({ nullable: true, resolve: (vm) => vm.nodeName }),
  }),
});

export const VcdVmNode = builder.prismaNode("VirtualMachine", {
  variant: "VcdVm",
  ...sourceVariant("VCD"),
  description: "A VMware Cloud Director VM.",
  fields: (t) => ({
    urn: t.exposeString("externalId"),
    href: t.string({
      nullable: true,
      select: { details: true },
      resolve: (vm) => detail(vm.details, "vcd", "href"),
    }),
    orgName: t.string({ nullable: true, resolve: (vm) => vm.orgName }),
    vdcName: t.string({ nullable: true, resolve: (vm) => vm.vdcName }),
    vappName: t.string({ nullable: true, resolve: (vm) => vm.vappName }),
    backingMoref: t.exposeString("backingMoref", { nullable: true }),
    backingVcenterId: t.exposeString("backingVcenterId", { nullable: true }),
  }),
});

export const VcenterVmNode = builder.prismaNode("VirtualMachine", {
  variant: "VcenterVm",
  ...sourceVariant("VCENTER"),
  description: "A vCenter VM.",
  fields: (t) => ({
    moref: t.exposeString("externalId"),
    datacenterName: t.string({ nullable: true, resolve: (vm) => vm.datacenterName }),
    clusterName: t.string({ nullable: true, resolve: (vm) => vm.clusterName }),
    hostName: t.string({ nullable: true, resolve: (vm) => vm.hostName }),
  }),
});

const counts = new CountAlongside();
const versions = new RequestVersions();
const totals = new InventoryMemo<number>(500);
// A page holds up to 501 ids: at most about 100,000 ids kept, some 10 MB.
const pages = new InventoryMemo<string[]>(200);

type ListContext = { prisma: PrismaClient; viewer: Viewer | null };

/** The guests `where` matches, exact as of this request (docs/behaviour.md §11.2). */
function countVms(ctx: ListContext, where: Prisma.VirtualMachineWhereInput): Promise<number> {
  // The where holds the viewer's visibility condition: viewers who see different connections
  // never share a total.
  return totals.get(ctx.prisma, versions.of(ctx, ctx.prisma), JSON.stringify(where), () =>
    ctx.prisma.virtualMachine.count({ where }),
  );
}

/** The page's ids, kept while the inventory is unchanged (docs/behaviour.md §11.5). */
const keptPageIds =
  (ctx: ListContext): PageIds =>
  (key, read) =>
    pages.get(ctx.prisma, versions.of(ctx, ctx.prisma), key, read);

builder.queryField("virtualMachines", (t) =>
  t.prismaConnection(
    {
      type: VirtualMachineInterface,
      cursor: "id",
      defaultSize: 100,
      maxSize: 500,
      authScopes: viewScope,
      description:
        "Every VM and container from every source. Removed guests (tombstones) appear with includeRemoved, or with changedSince when they were removed after it.",
      args: {
        filter: t.arg({ type: VirtualMachineFilter, required: false }),
        orderBy: t.arg({ type: [VirtualMachineOrder], required: false }),
      },
      resolve: (query, _root, args, ctx, info) => {
        // TRAP: docs/behaviour.md §7.9 — the page, its total, the CSV export and the Servers figures all read through this where.
        const where = { AND: [buildVmWhere(args.filter), visibleVms(ctx.viewer)] };
        if (selectsField(info, "totalCount")) {
          counts.start(args, () => countVms(ctx, where));
        }
        const idsFirst = isNameOrder(args.orderBy) && narrowsLiveGuests(args.filter);
        // The paging key holds the where, and with it the viewer's visibility (§7.9).
        const pageIds = ordersByInventoryOnly(args.orderBy) ? keptPageIds(ctx) : undefined;
        return findVmPage(ctx.prisma, query, where, buildVmOrder(args.orderBy), idsFirst, pageIds);
      },
      totalCount: (_parent, args, ctx) =>
        counts.take(args, () =>
          countVms(ctx, { AND: [buildVmWhere(args.filter), visibleVms(ctx.viewer)] }),
        ),
    },
    { name: "VirtualMachineConnection", description: "A page of virtual machines." },
    { name: "VirtualMachineEdge" },
  ),
);
