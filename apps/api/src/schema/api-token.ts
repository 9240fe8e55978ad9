// API tokens for integrators: create (secret shown once), list, revoke.
import type { Prisma } from "@hyperlens/db";
import { createApiToken } from "../auth/api-tokens.ts";
import type { Viewer } from "../auth/viewer.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { recordAudit } from "../services/audit.ts";
import { builder } from "./builder.ts";
import { groupIdsOf } from "./connection.ts";
import { NODE_LOOKUP } from "./global-ids.ts";
import { CapabilityEnum } from "./viewer.ts";

/** The tokens a viewer is shown: their own; with MANAGE_USERS, everyone's. */
function tokensVisibleTo(viewer: Viewer | null): Prisma.ApiTokenWhereInput {
  if (viewer?.capabilities.has("MANAGE_USERS")) return {};
  // An undefined createdById would be no condition at all to Prisma: no viewer, no tokens.
  return viewer ? { createdById: viewer.userId } : { id: { in: [] } };
}

const ApiTokenNode = builder.prismaNode("ApiToken", {
  ...NODE_LOOKUP,
  // TRAP: issue 20 — node(id) showed any signed-in user another user's token: it reads by the list's rule.
  findUnique: (id, ctx) => ({ id, AND: [tokensVisibleTo(ctx.viewer)] }),
  authScopes: { user: true },
  description:
    "A token an integrator sends as `Authorization: Bearer …`. The secret is never stored.",
  fields: (t) => ({
    name: t.exposeString("name"),
    prefix: t.exposeString("prefix", {
      description: "The token's first characters, to tell tokens apart.",
    }),
    capabilities: t.field({ type: [CapabilityEnum], resolve: (token) => token.capabilities }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    lastUsedAt: t.expose("lastUsedAt", { type: "DateTime", nullable: true }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
    createdBy: t.relation("createdBy"),
  }),
});

const CreatedApiToken = builder
  .objectRef<{ token: string; apiToken: { id: string } }>("CreatedApiToken")
  .implement({
    description: "A new token. `token` is shown this once and cannot be read again.",
    fields: (t) => ({
      token: t.exposeString("token"),
      apiToken: t.prismaField({
        type: "ApiToken",
        resolve: (query, parent, _args, ctx) =>
          ctx.prisma.apiToken.findUniqueOrThrow({ ...query, where: { id: parent.apiToken.id } }),
      }),
    }),
  });

builder.queryField("apiTokens", (t) =>
  t.prismaField({
    type: ["ApiToken"],
    authScopes: { user: true },
    description: "Your API tokens; with MANAGE_USERS, everyone's.",
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.apiToken.findMany({
        ...query,
        where: tokensVisibleTo(ctx.viewer),
        orderBy: { createdAt: "desc" },
      }),
  }),
);

builder.mutationField("createApiToken", (t) =>
  t.field({
    type: CreatedApiToken,
    // Only people create tokens: a token cannot mint more tokens.
    authScopes: { user: true },
    errors: { types: [ValidationError] },
    args: {
      name: t.arg.string({ required: true }),
      capabilities: t.arg({ type: [CapabilityEnum], required: true }),
      expiresAt: t.arg({ type: "DateTime", required: false }),
      allConnections: t.arg.boolean({
        required: false,
        description: "See what you see (default); false: only the connections of groupIds.",
      }),
      groupIds: t.arg.globalIDList({
        required: false,
        description: "With allConnections false: a subset of your own connection groups.",
      }),
    },
    resolve: async (_root, args, ctx) => {
      const viewer = ctx.viewer;
      if (!viewer) throw new Error("unreachable: authScopes require a user");
      const name = args.name.trim();
      if (name.length < 1 || name.length > 100)
        throw new ValidationError("Use 1–100 characters.", "name");
      if (args.capabilities.length === 0) {
        throw new ValidationError("Give the token at least one capability.", "capabilities");
      }
      if (args.expiresAt && args.expiresAt <= new Date()) {
        throw new ValidationError("The expiry must be in the future.", "expiresAt");
      }
      const created = await createApiToken(ctx.prisma, viewer, {
        name,
        capabilities: args.capabilities,
        expiresAt: args.expiresAt ?? null,
        allConnections: args.allConnections ?? true,
        groupIds: groupIdsOf(args.groupIds ?? [], "groupIds"),
      });
      await recordAudit(ctx.prisma, viewer, {
        action: "token.create",
        targetType: "apiToken",
        targetId: created.apiToken.id,
        details: {
          name,
          capabilities: args.capabilities,
          allConnections: created.apiToken.allConnections,
          groupIds: groupIdsOf(args.groupIds ?? [], "groupIds"),
        },
      });
      return created;
    },
  }),
);

builder.mutationField("revokeApiToken", (t) =>
  t.boolean({
    authScopes: { user: true },
    args: { id: t.arg.globalID({ required: true, for: [ApiTokenNode] }) },
    description: "Revokes a token at once; it can never be used again.",
    resolve: async (_root, args, ctx) => {
      const viewer = ctx.viewer;
      // A token the viewer may not see is one they may not revoke: the list's rule, not a copy.
      const token = await ctx.prisma.apiToken.findFirst({
        where: { id: args.id.id, AND: [tokensVisibleTo(viewer)] },
      });
      if (!token) throw new NotFoundError("No such API token.");
      await ctx.prisma.apiToken.update({
        where: { id: token.id },
        data: { revokedAt: token.revokedAt ?? new Date() },
      });
      await recordAudit(ctx.prisma, viewer ?? null, {
        action: "token.revoke",
        targetType: "apiToken",
        targetId: token.id,
      });
      // Its open subscriptions end now, on every replica, not at the next periodic check.
      ctx.credentialChanges.announce(token.createdById);
      return true;
    },
  }),
);
