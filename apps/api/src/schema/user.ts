// User management (MANAGE_USERS): create, edit capabilities, reset a password, disable, enable,
// delete. The rules live in services/users.ts, shared with the command line.
import { encodeGlobalID } from "@pothos/plugin-relay";
import type { Context } from "../context.ts";
import { ValidationError } from "../errors.ts";
import {
  createUser,
  deleteUser,
  disableUser,
  enableUser,
  resetUserPassword,
  type UserLifecycle,
  updateUserCapabilities,
} from "../services/users.ts";
import { builder } from "./builder.ts";
import { NODE_LOOKUP } from "./global-ids.ts";
import { CapabilityEnum } from "./viewer.ts";

/** The lifecycle rules' dependencies from a request: its database and the change signal. */
export function lifecycleOf(ctx: Context): UserLifecycle {
  return { prisma: ctx.prisma, announce: (userId) => ctx.credentialChanges.announce(userId) };
}

/** The acting viewer; the field's authScopes guarantee one. */
function actorOf(ctx: Context) {
  if (!ctx.viewer) throw new Error("unreachable: authScopes require a viewer");
  return ctx.viewer;
}

export const UserNode = builder.prismaNode("User", {
  ...NODE_LOOKUP,
  description: "A person who signs in to Hyperlens.",
  authScopes: { MANAGE_USERS: true },
  fields: (t) => ({
    username: t.exposeString("username"),
    isAdmin: t.exposeBoolean("isAdmin"),
    capabilities: t.field({ type: [CapabilityEnum], resolve: (user) => user.capabilities }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    disabledAt: t.expose("disabledAt", { type: "DateTime", nullable: true }),
    mustChangePassword: t.exposeBoolean("mustChangePassword", {
      description: "True after an administrator's reset, until the user chooses a new password.",
    }),
    lastSignInAt: t.field({
      type: "DateTime",
      nullable: true,
      description:
        "When the user's newest session still open began; null when none is open (sessions end at sign-out).",
      resolve: async (user, _args, ctx) => {
        const newest = await ctx.prisma.session.findFirst({
          where: { userId: user.id, expiresAt: { gt: new Date() } },
          orderBy: { createdAt: "desc" },
          select: { createdAt: true },
        });
        return newest?.createdAt ?? null;
      },
    }),
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

builder.mutationField("resetUserPassword", (t) =>
  t.prismaField({
    type: "User",
    authScopes: { MANAGE_USERS: true },
    description:
      "Sets a user's password; they must choose a new one at their next sign-in, and every session of theirs ends now.",
    errors: { types: [ValidationError] },
    args: {
      userId: t.arg.globalID({ required: true, for: [UserNode] }),
      newPassword: t.arg.string({ required: true }),
    },
    resolve: (_query, _root, args, ctx) =>
      resetUserPassword(lifecycleOf(ctx), actorOf(ctx), {
        userId: args.userId.id,
        newPassword: args.newPassword,
      }),
  }),
);

builder.mutationField("updateUserCapabilities", (t) =>
  t.prismaField({
    type: "User",
    authScopes: { MANAGE_USERS: true },
    description:
      "Sets what a user may do; it applies to their next request. The last enabled administrator stays one.",
    errors: { types: [ValidationError] },
    args: {
      userId: t.arg.globalID({ required: true, for: [UserNode] }),
      capabilities: t.arg({ type: [CapabilityEnum], required: true }),
      isAdmin: t.arg.boolean({ required: true }),
    },
    resolve: (_query, _root, args, ctx) =>
      updateUserCapabilities(lifecycleOf(ctx), actorOf(ctx), {
        userId: args.userId.id,
        capabilities: args.capabilities,
        isAdmin: args.isAdmin,
      }),
  }),
);

builder.mutationField("disableUser", (t) =>
  t.prismaField({
    type: "User",
    authScopes: { MANAGE_USERS: true },
    description:
      "Disables a user: every session ends and every API token of theirs is revoked at once, open subscriptions included.",
    errors: { types: [ValidationError] },
    args: { userId: t.arg.globalID({ required: true, for: [UserNode] }) },
    resolve: (_query, _root, args, ctx) =>
      disableUser(lifecycleOf(ctx), actorOf(ctx), args.userId.id),
  }),
);

builder.mutationField("enableUser", (t) =>
  t.prismaField({
    type: "User",
    authScopes: { MANAGE_USERS: true },
    description: "Lets a disabled user sign in again; their revoked tokens stay revoked.",
    args: { userId: t.arg.globalID({ required: true, for: [UserNode] }) },
    resolve: (_query, _root, args, ctx) =>
      enableUser(lifecycleOf(ctx), actorOf(ctx), args.userId.id),
  }),
);

builder.mutationField("deleteUser", (t) =>
  t.id({
    authScopes: { MANAGE_USERS: true },
    description:
      "Deletes a user with their sessions and tokens; their audit entries stay, with the name. Returns the deleted id.",
    errors: { types: [ValidationError] },
    args: { userId: t.arg.globalID({ required: true, for: [UserNode] }) },
    resolve: async (_root, args, ctx) => {
      const deleted = await deleteUser(lifecycleOf(ctx), actorOf(ctx), args.userId.id);
      return encodeGlobalID("User", deleted.id);
    },
  }),
);
