// The unified list in groups (docs/behaviour.md §9.45): how many guests each source, cluster, node,
// organization, VDC or tag holds, through the list's own filter and the viewer's visibility. The
// web app shows these as collapsible group rows and lists a group's guests with `filter.group`.
import type { Prisma, PrismaClient } from "@hyperlens/db";
import { visibleVms } from "../auth/visibility.ts";
import { builder } from "./builder.ts";
import { buildVmWhere, VirtualMachineFilter } from "./virtual-machine-filter.ts";
import {
  GROUP_COLUMNS,
  type GroupBy,
  type GroupColumns,
  keysOfGuest,
  VirtualMachineGroupByEnum,
} from "./virtual-machine-group-key.ts";

/** One group: its key (null for the guests with no value) and how many guests it holds. */
export interface VmGroup {
  key: string | null;
  count: number;
}

const byKey = new Intl.Collator("en", { numeric: true });

/**
 * The groups of the guests `where` matches, by key (numbers in keys compared as numbers, so pve2
 * comes before pve10), the group of guests with no value last.
 */
export async function countVmGroups(
  prisma: PrismaClient,
  by: GroupBy,
  where: Prisma.VirtualMachineWhereInput,
): Promise<VmGroup[]> {
  // One row per distinct combination of the grouped columns, counted by the database; a tag list
  // is such a combination, split into its tags here.
  const combinations = await prisma.virtualMachine.groupBy({
    by: [...GROUP_COLUMNS[by]],
    where,
    _count: { _all: true },
  });
  const counts = new Map<string | null, number>();
  for (const combination of combinations) {
    for (const key of keysOfGuest(by, combination as GroupColumns))
      counts.set(key, (counts.get(key) ?? 0) + combination._count._all);
  }
  return [...counts]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => {
      if (a.key === null || b.key === null) return a.key === null ? 1 : -1;
      return byKey.compare(a.key, b.key);
    });
}

const VmGroupRef = builder.objectRef<VmGroup>("VirtualMachineGroup").implement({
  description: "One group of the unified list.",
  fields: (t) => ({
    key: t.exposeString("key", {
      nullable: true,
      description: "The source, cluster, node, organization, VDC or tag; null: none.",
    }),
    count: t.exposeInt("count", { description: "Guests in the group, through the filter." }),
  }),
});

builder.queryField("virtualMachineGroups", (t) =>
  t.field({
    type: [VmGroupRef],
    authScopes: { VIEW_INVENTORY: true },
    description:
      "The unified list's groups with their guest counts, through the same filter and visibility as virtualMachines; list one group with filter.group.",
    args: {
      by: t.arg({ type: VirtualMachineGroupByEnum, required: true }),
      filter: t.arg({ type: VirtualMachineFilter, required: false }),
    },
    resolve: (_root, args, ctx) =>
      // TRAP: docs/behaviour.md §7.9 — counts of guests the viewer is not granted would leak their
      // clusters, nodes and tags.
      countVmGroups(ctx.prisma, args.by, {
        AND: [buildVmWhere(args.filter), visibleVms(ctx.viewer)],
      }),
  }),
);
