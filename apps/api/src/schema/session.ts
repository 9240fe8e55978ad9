// Your own account: change your password, see your signed-in sessions, end one or all others.
import type { Prisma } from "@hyperlens/db";
import type { Viewer } from "../auth/viewer.ts";
import type { Context } from "../context.ts";
import {
  ForbiddenError,
  NotAuthenticatedError,
  RateLimitedError,
  ValidationError,
} from "../errors.ts";
import { revokeOwnSession, signOutEverywhereElse } from "../services/own-sessions.ts";
import { changeOwnPassword } from "../services/users.ts";
import { builder } from "./builder.ts";
import { NODE_LOOKUP } from "./global-ids.ts";
import { lifecycleOf } from "./user.ts";
import { ViewerRef } from "./viewer.ts";

/** The sessions a viewer is shown: their own, and nobody else's. */
function sessionsVisibleTo(viewer: Viewer | null): Prisma.SessionWhereInput {
  // An undefined userId would be no condition at all to Prisma: no viewer, no sessions.
  return viewer ? { userId: viewer.userId } : { id: { in: [] } };
}

/** The signed-in person (not a token): sessions and passwords are theirs alone. */
function personOf(ctx: Context): Viewer {
  if (!ctx.viewer) throw new NotAuthenticatedError();
  if (ctx.viewer.kind !== "USER")
    throw new ForbiddenError(
      "Only a signed-in person has sessions and a password; a token has neither.",
    );
  return ctx.viewer;
}

const SessionNode = builder.prismaNode("Session", {
  ...NODE_LOOKUP,
  // TRAP: docs/behaviour.md §12.9 — node(id) must not show another user's session.
  findUnique: (id, ctx) => ({ id, AND: [sessionsVisibleTo(ctx.viewer)] }),
  authScopes: { user: true },
  description: "One of your signed-in sessions (a browser). The secret is never stored.",
  fields: (t) => ({
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it signed in." }),
    lastSeenAt: t.expose("lastSeenAt", {
      type: "DateTime",
      description: "Its last request (updated at most once a minute).",
    }),
    address: t.exposeString("address", {
      nullable: true,
      description: "The client's address at sign-in.",
    }),
    userAgent: t.exposeString("userAgent", {
      nullable: true,
      description: "The browser's User-Agent at sign-in.",
    }),
    method: t.exposeString("method", {
      description: '"password", or the slug of the single sign-on provider it signed in with.',
    }),
    isCurrent: t.boolean({
      description: "True for the session asking.",
      resolve: (session, _args, ctx) => session.id === ctx.viewer?.sessionId,
    }),
  }),
});

builder.queryField("mySessions", (t) =>
  t.prismaField({
    type: [SessionNode],
    authScopes: { user: true },
    description: "Your signed-in sessions still open, the most recently used first.",
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.session.findMany({
        ...query,
        where: { AND: [sessionsVisibleTo(personOf(ctx)), { expiresAt: { gt: new Date() } }] },
        orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
      }),
  }),
);

builder.mutationField("revokeSession", (t) =>
  t.boolean({
    authScopes: { user: true },
    description: "Ends one of your sessions (another browser of yours; or this one, as signOut).",
    args: { id: t.arg.globalID({ required: true, for: [SessionNode] }) },
    resolve: async (_root, args, ctx) => {
      await revokeOwnSession(lifecycleOf(ctx), personOf(ctx), args.id.id);
      return true;
    },
  }),
);

builder.mutationField("signOutEverywhereElse", (t) =>
  t.int({
    authScopes: { user: true },
    description: "Ends every session of yours but this one; returns how many ended.",
    resolve: (_root, _args, ctx) => signOutEverywhereElse(lifecycleOf(ctx), personOf(ctx)),
  }),
);

builder.mutationField("changeOwnPassword", (t) =>
  t.field({
    type: ViewerRef,
    // No authScopes: a session that must change its password may call this (and it checks the
    // caller is a signed-in person itself); the password-change gate lets it through.
    description:
      "Changes your password (the current one is asked, and a wrong one counts against the sign-in limit); your other sessions end, this one stays.",
    errors: { types: [ValidationError, RateLimitedError] },
    args: {
      currentPassword: t.arg.string({ required: true }),
      newPassword: t.arg.string({ required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const viewer = personOf(ctx);
      await changeOwnPassword(lifecycleOf(ctx), viewer, {
        currentPassword: args.currentPassword,
        newPassword: args.newPassword,
        address: ctx.clientAddress,
      });
      return { ...viewer, mustChangePassword: false };
    },
  }),
);
