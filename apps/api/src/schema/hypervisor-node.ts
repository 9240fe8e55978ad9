// Hypervisor nodes (Proxmox nodes, vCenter hosts) and Director edge gateways.
import { ofVisibleConnections } from "../auth/visibility.ts";
import { builder } from "./builder.ts";
import { ConnectionNode } from "./connection.ts";
import { NODE_LOOKUP } from "./global-ids.ts";

const viewScope = { VIEW_INVENTORY: true } as const;

const HypervisorNodeRef = builder.prismaNode("HypervisorNode", {
  ...NODE_LOOKUP,
  // TRAP: docs/behaviour.md §7.9 — node(id) would show a node of a connection the viewer is not granted.
  findUnique: (id, ctx) => ({ id, ...ofVisibleConnections(ctx.viewer) }),
  authScopes: viewScope,
  description: "A Proxmox node or a vCenter host.",
  fields: (t) => ({
    connection: t.relation("connection"),
    externalId: t.exposeString("externalId"),
    name: t.exposeString("name"),
    clusterName: t.exposeString("clusterName", { nullable: true }),
    isOnline: t.exposeBoolean("isOnline"),
    cpuCount: t.exposeInt("cpuCount", { nullable: true }),
    memoryBytes: t.float({
      nullable: true,
      resolve: (n) => (n.memoryBytes === null ? null : Number(n.memoryBytes)),
    }),
    details: t.field({ type: "JSON", resolve: (n) => n.details }),
    lastSeenAt: t.expose("lastSeenAt", { type: "DateTime" }),
    removedAt: t.expose("removedAt", { type: "DateTime", nullable: true }),
  }),
});

const EdgeGatewayRef = builder.prismaNode("EdgeGateway", {
  ...NODE_LOOKUP,
  findUnique: (id, ctx) => ({ id, ...ofVisibleConnections(ctx.viewer) }),
  authScopes: viewScope,
  description: "A Director edge gateway, owned by a VDC or a VDC group.",
  fields: (t) => ({
    connection: t.relation("connection"),
    externalId: t.exposeString("externalId"),
    name: t.exposeString("name"),
    orgName: t.exposeString("orgName", { nullable: true }),
    ownerType: t.exposeString("ownerType", { nullable: true, description: "VDC or VDC_GROUP" }),
    ownerName: t.exposeString("ownerName", { nullable: true }),
    details: t.field({ type: "JSON", resolve: (g) => g.details }),
    lastSeenAt: t.expose("lastSeenAt", { type: "DateTime" }),
    removedAt: t.expose("removedAt", { type: "DateTime", nullable: true }),
  }),
});

builder.queryFields((t) => ({
  hypervisorNodes: t.prismaField({
    type: [HypervisorNodeRef],
    authScopes: viewScope,
    args: { connectionId: t.arg.globalID({ required: false, for: [ConnectionNode] }) },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.hypervisorNode.findMany({
        ...query,
        where: {
          removedAt: null,
          AND: [
            args.connectionId ? { connectionId: args.connectionId.id } : {},
            ofVisibleConnections(ctx.viewer),
          ],
        },
        orderBy: [{ name: "asc" }, { id: "asc" }],
      }),
  }),
  edgeGateways: t.prismaField({
    type: [EdgeGatewayRef],
    authScopes: viewScope,
    args: {
      connectionId: t.arg.globalID({ required: false, for: [ConnectionNode] }),
      includeRemoved: t.arg.boolean({ required: false, defaultValue: false }),
    },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.edgeGateway.findMany({
        ...query,
        where: {
          ...(args.includeRemoved ? {} : { removedAt: null }),
          AND: [
            args.connectionId ? { connectionId: args.connectionId.id } : {},
            ofVisibleConnections(ctx.viewer),
          ],
        },
        orderBy: [{ name: "asc" }, { id: "asc" }],
      }),
  }),
}));
