// Sorting of the unified list. The row id always breaks ties, so cursors are stable.
import type { Prisma } from "@hyperlens/db";
import { builder } from "./builder.ts";

const OrderField = builder.enumType("VirtualMachineOrderField", {
  values: ["NAME", "SOURCE", "STATE", "MEMORY", "CPU", "LAST_SEEN", "CHANGED"] as const,
});
const OrderDirection = builder.enumType("OrderDirection", { values: ["ASC", "DESC"] as const });

export const VirtualMachineOrder = builder.inputType("VirtualMachineOrder", {
  fields: (t) => ({
    field: t.field({ type: OrderField, required: true }),
    direction: t.field({ type: OrderDirection, required: false, defaultValue: "ASC" }),
  }),
});

type OrderInput = typeof VirtualMachineOrder.$inferInput;

const COLUMN = {
  NAME: "nameSort",
  SOURCE: "source",
  STATE: "state",
  MEMORY: "memoryBytes",
  CPU: "cpuCount",
  LAST_SEEN: "lastSeenAt",
  CHANGED: "changedAt",
} as const;

/** The Prisma ordering for the requested sort (default: by name). */
export function buildVmOrder(
  order: readonly OrderInput[] | null | undefined,
): Prisma.VirtualMachineOrderByWithRelationInput[] {
  const requested = order?.length ? order : [{ field: "NAME" as const, direction: "ASC" as const }];
  const clauses = requested.map((o): Prisma.VirtualMachineOrderByWithRelationInput => {
    const sort = o.direction === "DESC" ? "desc" : "asc";
    const column = COLUMN[o.field];
    // Nullable figures sort missing values last either way, so a page of "biggest first" is useful.
    return column === "memoryBytes" || column === "cpuCount"
      ? { [column]: { sort, nulls: "last" } }
      : { [column]: sort };
  });
  return [...clauses, { id: "asc" }];
}

/** Whether the list is in its default order, by name: the order of the live-name index. */
export function isNameOrder(order: readonly OrderInput[] | null | undefined): boolean {
  return !order?.length || order[0]?.field === "NAME";
}
