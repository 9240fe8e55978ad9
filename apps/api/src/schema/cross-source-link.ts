// Cross-source identity (docs/behaviour.md §10): a Director VM and the vCenter VM that backs it, each reachable
// from the other. The rule lives in services/cross-source-links.ts.

import { visibleVms } from "../auth/visibility.ts";
import {
  type BackedPairs,
  findBackedDirectorVm,
  findBackedPairs,
  findBackingVcenterVm,
} from "../services/cross-source-links.ts";
import { builder } from "./builder.ts";
import { VcdVmNode, VcenterVmNode } from "./virtual-machine.ts";
import { buildVmWhere, VirtualMachineFilter } from "./virtual-machine-filter.ts";

const viewScope = { VIEW_INVENTORY: true } as const;

builder.prismaObjectField(VcdVmNode, "backingVm", (t) =>
  t.field({
    type: VcenterVmNode,
    nullable: true,
    authScopes: viewScope,
    description:
      "The vCenter VM that backs this Director VM, when its vCenter is also connected (same address) and holds the VM's moref. Needs a provider Director connection, which can read the vCenter's address.",
    select: { backingMoref: true, details: true, removedAt: true },
    // TRAP: docs/behaviour.md §7.9 — the other side of a link may be a connection of a group the viewer is not granted.
    resolve: (vm, _args, ctx) => findBackingVcenterVm(ctx.prisma, vm, visibleVms(ctx.viewer)),
  }),
);

builder.prismaObjectField(VcenterVmNode, "backedDirectorVm", (t) =>
  t.field({
    type: VcdVmNode,
    nullable: true,
    authScopes: viewScope,
    description:
      "The Cloud Director VM this vCenter VM provides, when a provider Director connection names this vCenter and moref.",
    select: { externalId: true, removedAt: true, connection: { select: { baseUrl: true } } },
    resolve: (vm, _args, ctx) => findBackedDirectorVm(ctx.prisma, vm, visibleVms(ctx.viewer)),
  }),
);

const CrossSourcePairs = builder.objectRef<BackedPairs>("CrossSourcePairs").implement({
  description:
    "Machines the list shows twice — a Director VM and the vCenter VM backing it — with what their vCenter side allocates: subtract from the sum of the per-source figures to count each machine once.",
  fields: (t) => ({
    count: t.exposeInt("count"),
    cpuCount: t.exposeInt("cpuCount"),
    memoryBytes: t.exposeFloat("memoryBytes"),
    diskTotalBytes: t.exposeFloat("diskTotalBytes"),
  }),
});

builder.queryField("crossSourcePairs", (t) =>
  t.field({
    type: CrossSourcePairs,
    authScopes: viewScope,
    description:
      "The pairs whose Director VM matches the filter and whose both sides the caller may see (docs/behaviour.md §10.12).",
    args: { filter: t.arg({ type: VirtualMachineFilter, required: false }) },
    resolve: (_root, args, ctx) =>
      findBackedPairs(ctx.prisma, buildVmWhere(args.filter), visibleVms(ctx.viewer)),
  }),
);
