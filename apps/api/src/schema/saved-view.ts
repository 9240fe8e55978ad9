// Saved views of the Servers page (docs/behaviour.md §9.47): each user's own, read and changed by
// nobody else. The query string is opaque here; the web app knows what its parameters mean.
import type { Prisma } from "@hyperlens/db";
import { encodeGlobalID } from "@pothos/plugin-relay";
import type { Viewer } from "../auth/viewer.ts";
import { ValidationError } from "../errors.ts";
import { deleteView, ownViews, renameView, saveView } from "../services/saved-views.ts";
import { builder } from "./builder.ts";
import { NODE_LOOKUP } from "./global-ids.ts";

const signedInUser = { user: true } as const;

/** The signed-in user's id; `user` auth scope has already made sure there is one. */
function userIdOf(viewer: { userId: string } | null): string {
  if (!viewer) throw new Error("unreachable: authScopes require a user");
  return viewer.userId;
}

/** A person's own views; a token or no viewer is shown none. */
function viewsShownTo(viewer: Viewer | null): Prisma.SavedViewWhereInput {
  // An undefined or empty userId would be no condition or a database error: no person, no views.
  return viewer?.kind === "USER" ? ownViews(viewer.userId) : { id: { in: [] } };
}

const SavedViewNode = builder.prismaNode("SavedView", {
  ...NODE_LOOKUP,
  // TRAP: docs/behaviour.md §9.47 — node(id) would show anyone another user's view and its filters.
  findUnique: (id, ctx) => ({ id, AND: [viewsShownTo(ctx.viewer)] }),
  authScopes: signedInUser,
  description: "A named Servers-page view of yours: its query string, without the drawer's `vm`.",
  fields: (t) => ({
    name: t.exposeString("name"),
    query: t.exposeString("query", {
      description: "The Servers page's query string, without `?`: open `/servers?<query>`.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

builder.queryField("savedViews", (t) =>
  t.prismaField({
    type: [SavedViewNode],
    authScopes: signedInUser,
    description: "Your saved views of the Servers page, by name.",
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.savedView.findMany({
        ...query,
        where: ownViews(userIdOf(ctx.viewer)),
        orderBy: { name: "asc" },
      }),
  }),
);

builder.mutationFields((t) => ({
  saveView: t.prismaField({
    type: SavedViewNode,
    authScopes: signedInUser,
    errors: { types: [ValidationError] },
    description:
      "Saves the Servers page's query string under a name of yours; names are unique per user, without regard to case.",
    args: {
      name: t.arg.string({ required: true }),
      query: t.arg.string({ required: true }),
    },
    resolve: (_query, _root, args, ctx) => saveView(ctx.prisma, userIdOf(ctx.viewer), args),
  }),
  renameView: t.prismaField({
    type: SavedViewNode,
    authScopes: signedInUser,
    errors: { types: [ValidationError] },
    args: {
      id: t.arg.globalID({ required: true, for: [SavedViewNode] }),
      name: t.arg.string({ required: true }),
    },
    resolve: (_query, _root, args, ctx) =>
      renameView(ctx.prisma, userIdOf(ctx.viewer), args.id.id, args.name),
  }),
  deleteView: t.id({
    authScopes: signedInUser,
    description: "Deletes one of your saved views. Returns the deleted id.",
    args: { id: t.arg.globalID({ required: true, for: [SavedViewNode] }) },
    resolve: async (_root, args, ctx) => {
      await deleteView(ctx.prisma, userIdOf(ctx.viewer), args.id.id);
      return encodeGlobalID("SavedView", args.id.id);
    },
  }),
}));
