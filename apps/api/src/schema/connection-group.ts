// Connection groups ("tenants", docs/security.md): who sees which connections. Managing them and
// the grants takes MANAGE_USERS; a viewer is shown the names of the groups they are granted.
import { MANAGE_CAPABILITY } from "@hyperlens/shared";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { visibleConnections, visibleGroups } from "../auth/visibility.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import {
  checkConnectionGroupChoice,
  createConnectionGroup,
  deleteConnectionGroup,
  setUserConnectionGrants,
  updateConnectionGroup,
} from "../services/connection-groups.ts";
import { builder } from "./builder.ts";
import { ConnectionNode, groupIdsOf, regroupConnection } from "./connection.ts";
import { NODE_LOOKUP } from "./global-ids.ts";
import { ViewerRef } from "./viewer.ts";

const manageUsers = { MANAGE_USERS: true } as const;

export const ConnectionGroupNode = builder.prismaNode("ConnectionGroup", {
  ...NODE_LOOKUP,
  // TRAP: docs/behaviour.md §7.9 — node(id) would name a group the viewer is not granted.
  findUnique: (id, ctx) => ({ id, AND: [visibleGroups(ctx.viewer)] }),
  authScopes: { signedIn: true },
  description:
    "A named set of connections (a tenant, a team, a site). Users and API tokens granted a group see its connections.",
  fields: (t) => ({
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    connections: t.prismaField({
      type: [ConnectionNode],
      description: "Its connections that you see.",
      resolve: (query, group, _args, ctx) =>
        ctx.prisma.connection.findMany({
          ...query,
          where: {
            groups: { some: { groupId: group.id } },
            AND: [visibleConnections(ctx.viewer)],
          },
          orderBy: { name: "asc" },
        }),
    }),
    members: t.prismaField({
      type: ["User"],
      nullable: true,
      authScopes: manageUsers,
      unauthorizedResolver: () => null,
      description: "The users granted this group (MANAGE_USERS only; null otherwise).",
      resolve: (query, group, _args, ctx) =>
        ctx.prisma.user.findMany({
          ...query,
          where: { groupGrants: { some: { groupId: group.id } } },
          orderBy: { username: "asc" },
        }),
    }),
  }),
});

builder.prismaObjectField(ConnectionNode, "groups", (t) =>
  t.prismaField({
    type: [ConnectionGroupNode],
    description: "The groups it is in, of those you are shown.",
    resolve: (query, connection, _args, ctx) =>
      ctx.prisma.connectionGroup.findMany({
        ...query,
        where: {
          connections: { some: { connectionId: connection.id } },
          AND: [visibleGroups(ctx.viewer)],
        },
        orderBy: { name: "asc" },
      }),
  }),
);

builder.prismaObjectFields("User", (t) => ({
  allConnections: t.exposeBoolean("allConnections", {
    description: "Sees every connection; false: only those of connectionGroups.",
  }),
  connectionGroups: t.prismaField({
    type: [ConnectionGroupNode],
    description: "The groups granted; they count only when allConnections is false.",
    resolve: (query, user, _args, ctx) =>
      ctx.prisma.connectionGroup.findMany({
        ...query,
        where: { userGrants: { some: { userId: user.id } } },
        orderBy: { name: "asc" },
      }),
  }),
}));

builder.prismaObjectFields("ApiToken", (t) => ({
  allConnections: t.exposeBoolean("allConnections", {
    description:
      "Sees what its creator sees; false: only connectionGroups (as far as the creator is granted them).",
  }),
  connectionGroups: t.prismaField({
    type: [ConnectionGroupNode],
    description: "The groups it is limited to, of those you are shown.",
    resolve: (query, token, _args, ctx) =>
      ctx.prisma.connectionGroup.findMany({
        ...query,
        where: { tokenGrants: { some: { tokenId: token.id } }, AND: [visibleGroups(ctx.viewer)] },
        orderBy: { name: "asc" },
      }),
  }),
}));

builder.objectFields(ViewerRef, (t) => ({
  allConnections: t.boolean({
    description: "Sees every connection; false: only those of connectionGroups.",
    resolve: (viewer) => viewer.scope.all,
  }),
  connectionGroups: t.prismaField({
    type: [ConnectionGroupNode],
    description:
      "The groups whose connections you see: all of them when allConnections, else those granted. An API token can be limited to these.",
    resolve: (query, viewer, _args, ctx) =>
      ctx.prisma.connectionGroup.findMany({
        ...query,
        where: viewer.scope.all ? {} : { id: { in: [...viewer.scope.groupIds] } },
        orderBy: { name: "asc" },
      }),
  }),
}));

builder.queryField("connectionGroups", (t) =>
  t.prismaField({
    type: [ConnectionGroupNode],
    authScopes: { signedIn: true },
    description:
      "Every group to those who manage users or see every connection; to others, the groups they are granted.",
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.connectionGroup.findMany({
        ...query,
        where: visibleGroups(ctx.viewer),
        orderBy: { name: "asc" },
      }),
  }),
);

builder.mutationFields((t) => ({
  createConnectionGroup: t.prismaField({
    type: ConnectionGroupNode,
    authScopes: manageUsers,
    errors: { types: [ValidationError] },
    args: {
      name: t.arg.string({ required: true }),
      description: t.arg.string({ required: false }),
    },
    resolve: (_query, _root, args, ctx) => createConnectionGroup(ctx.prisma, args, ctx.viewer),
  }),
  updateConnectionGroup: t.prismaField({
    type: ConnectionGroupNode,
    authScopes: manageUsers,
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: [ConnectionGroupNode] }),
      name: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
    },
    resolve: (_query, _root, args, ctx) =>
      updateConnectionGroup(ctx.prisma, args.id.id, args, ctx.viewer),
  }),
  deleteConnectionGroup: t.id({
    authScopes: manageUsers,
    description:
      "Deletes a group; its connections stay. Returns the deleted id. Whoever was granted only this group no longer sees them.",
    args: { id: t.arg.globalID({ required: true, for: [ConnectionGroupNode] }) },
    resolve: async (_root, args, ctx) => {
      await deleteConnectionGroup(
        ctx.prisma,
        args.id.id,
        ctx.viewer,
        ctx.credentialChanges.announce,
      );
      return encodeGlobalID("ConnectionGroup", args.id.id);
    },
  }),
  setConnectionGroups: t.prismaField({
    type: ConnectionNode,
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    description:
      "Sets the groups a connection is in (needs the capability that manages its kind). Groups you are not shown keep their membership.",
    args: {
      connectionId: t.arg.globalID({ required: true, for: [ConnectionNode] }),
      groupIds: t.arg.globalIDList({ required: true }),
    },
    resolve: async (_query, _root, args, ctx) => {
      const connection = await ctx.prisma.connection.findFirst({
        where: { id: args.connectionId.id, AND: [visibleConnections(ctx.viewer)] },
      });
      // TRAP: docs/behaviour.md §7.9 — a connection the viewer does not see answers as a missing one, never FORBIDDEN.
      if (!connection || !ctx.viewer?.capabilities.has(MANAGE_CAPABILITY[connection.kind]))
        throw new NotFoundError("No such connection, or you may not manage it.");
      const groupIds =
        (await checkConnectionGroupChoice(
          ctx.prisma,
          ctx.viewer,
          groupIdsOf(args.groupIds, "groupIds"),
          false,
        )) ?? [];
      await regroupConnection(ctx, connection.id, groupIds);
      return connection;
    },
  }),
  setUserConnectionGrants: t.prismaField({
    type: "User",
    authScopes: manageUsers,
    errors: { types: [ValidationError] },
    description:
      "Which connections a user sees: every one (allConnections), or those of groupIds. Administrators see every connection whatever this says.",
    args: {
      userId: t.arg.globalID({ required: true }),
      allConnections: t.arg.boolean({ required: true }),
      groupIds: t.arg.globalIDList({ required: true }),
    },
    resolve: async (_query, _root, args, ctx) => {
      if (args.userId.typename !== "User") throw new NotFoundError("No such user.");
      return setUserConnectionGrants(
        ctx.prisma,
        args.userId.id,
        { allConnections: args.allConnections, groupIds: groupIdsOf(args.groupIds, "groupIds") },
        ctx.viewer,
        ctx.credentialChanges.announce,
      );
    },
  }),
}));
