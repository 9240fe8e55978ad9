// Sorting of the unified list (docs/behaviour.md §9.44). Equal values fall back to the name, then
// the row id, so the order is total and a cursor resumes exactly where its page ended.
import type { Prisma } from "@hyperlens/db";
import { builder } from "./builder.ts";

const OrderField = builder.enumType("VirtualMachineOrderField", {
  values: [
    "NAME",
    "SOURCE",
    "STATE",
    "MEMORY",
    "CPU",
    "LAST_SEEN",
    "CHANGED",
    "KIND",
    "LOCATION",
    "ADDRESS",
    "DISK",
    "CONNECTION",
  ] as const,
});
const OrderDirection = builder.enumType("OrderDirection", { values: ["ASC", "DESC"] as const });

export const VirtualMachineOrder = builder.inputType("VirtualMachineOrder", {
  fields: (t) => ({
    field: t.field({ type: OrderField, required: true }),
    direction: t.field({ type: OrderDirection, required: false, defaultValue: "ASC" }),
  }),
});

type OrderInput = typeof VirtualMachineOrder.$inferInput;
type Clause = Prisma.VirtualMachineOrderByWithRelationInput;
type Sort = "asc" | "desc";

/** Missing values last either way, so "biggest first" or "A to Z" starts with something useful. */
const nullsLast =
  (...columns: (keyof Clause)[]) =>
  (sort: Sort): Clause[] =>
    columns.map((column) => ({ [column]: { sort, nulls: "last" } }));
const plain =
  (column: keyof Clause) =>
  (sort: Sort): Clause[] => [{ [column]: sort }];

const CLAUSES: Record<OrderInput["field"], (sort: Sort) => Clause[]> = {
  NAME: plain("nameSort"),
  SOURCE: plain("source"),
  STATE: plain("state"),
  KIND: plain("kind"),
  MEMORY: nullsLast("memoryBytes"),
  CPU: nullsLast("cpuCount"),
  DISK: nullsLast("diskTotalBytes"),
  ADDRESS: nullsLast("primaryAddress"),
  LAST_SEEN: plain("lastSeenAt"),
  CHANGED: plain("changedAt"),
  // Each source's location by its first part as the page shows it (org / datacenter / node), then
  // the rest: a source's guests sort among themselves by what the column reads.
  LOCATION: nullsLast(
    "orgName",
    "datacenterName",
    "nodeName",
    "vdcName",
    "clusterName",
    "hostName",
    "vappName",
  ),
  CONNECTION: (sort) => [{ connection: { name: sort } }],
};

/** The Prisma ordering for the requested sort (default: by name). */
export function buildVmOrder(order: readonly OrderInput[] | null | undefined): Clause[] {
  const requested = order?.length ? order : [{ field: "NAME" as const, direction: "ASC" as const }];
  const clauses = requested.flatMap((o) =>
    CLAUSES[o.field](o.direction === "DESC" ? "desc" : "asc"),
  );
  // TRAP: docs/behaviour.md §9.44 — without a total order, paging across equal values repeats or skips guests.
  const byName = requested.some((o) => o.field === "NAME") ? [] : [{ nameSort: "asc" as const }];
  return [...clauses, ...byName, { id: "asc" }];
}

/** Whether the list is in its default order, by name: the order of the live-name index. */
export function isNameOrder(order: readonly OrderInput[] | null | undefined): boolean {
  return !order?.length || order[0]?.field === "NAME";
}

/**
 * Whether the order reads only the guests' own columns, which only syncs write: a connection's
 * name is edited outside them (docs/behaviour.md §11.5).
 */
export function ordersByInventoryOnly(order: readonly OrderInput[] | null | undefined): boolean {
  return !order?.some((o) => o.field === "CONNECTION");
}
