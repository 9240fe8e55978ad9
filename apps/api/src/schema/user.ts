// User management (MANAGE_USERS).

import { ValidationError } from "../errors.ts";
import { createUser } from "../services/users.ts";
import { builder } from "./builder.ts";
import { NODE_LOOKUP } from "./global-ids.ts";
import { CapabilityEnum } from "./viewer.ts";

builder.prismaNode("User", {
  ...NODE_LOOKUP,
  description: "A person who signs in to Hyperlens.",
  authScopes: { MANAGE_USERS: true },
  fields: (t) => ({
    username: t.exposeString("username"),
    isAdmin: t.exposeBoolean("isAdmin"),
    capabilities: t.field({ type: [CapabilityEnum], resolve: (user) => user.capabilities }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    disabledAt: t.expose("disabledAt", { type: "DateTime", nullable: true }),
  }),
});

builder.queryField("users", (t) =>
  t.prismaField({
    type: ["User"],
    authScopes: { MANAGE_USERS: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.user.findMany({ ...query, orderBy: { username: "asc" } }),
  }),
);

builder.mutationField("createUser", (t) =>
  t.prismaField({
    type: "User",
    authScopes: { MANAGE_USERS: true },
    errors: { types: [ValidationError] },
    args: {
      username: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      capabilities: t.arg({ type: [CapabilityEnum], required: true }),
      isAdmin: t.arg.boolean({ required: false }),
    },
    resolve: async (_query, _root, args, ctx) =>
      createUser(
        ctx.prisma,
        {
          username: args.username,
          password: args.password,
          capabilities: args.capabilities,
          isAdmin: args.isAdmin ?? false,
        },
        ctx.viewer,
      ),
  }),
);
