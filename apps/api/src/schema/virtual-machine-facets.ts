// What the Servers page's filter bar offers per filter (docs/behaviour.md §9.43).
import { type VmFacets, vmFacets } from "../services/vm-facets.ts";
import { builder } from "./builder.ts";

const VirtualMachineFacets = builder.objectRef<VmFacets>("VirtualMachineFacets").implement({
  description:
    "The distinct values of each VirtualMachineFilter text filter among live guests of the connections the viewer sees, sorted, at most 500 each.",
  fields: (t) => ({
    nodeNames: t.exposeStringList("nodeName"),
    clusterNames: t.exposeStringList("clusterName"),
    datacenterNames: t.exposeStringList("datacenterName"),
    hostNames: t.exposeStringList("hostName"),
    orgNames: t.exposeStringList("orgName"),
    vdcNames: t.exposeStringList("vdcName"),
    guestOses: t.exposeStringList("guestOs"),
    tags: t.exposeStringList("tags"),
  }),
});

builder.queryField("virtualMachineFacets", (t) =>
  t.field({
    type: VirtualMachineFacets,
    authScopes: { VIEW_INVENTORY: true },
    description: "Values to offer in a filter of virtualMachines.",
    resolve: (_root, _args, ctx) => vmFacets(ctx.prisma, ctx.viewer),
  }),
);
