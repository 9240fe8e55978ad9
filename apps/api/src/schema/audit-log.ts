// Who changed which connection, user or token, and when (administrators only).
import { visibleAuditEntries } from "../auth/visibility.ts";
import { builder } from "./builder.ts";
import { NODE_LOOKUP } from "./global-ids.ts";

const AuditLogEntry = builder.prismaNode("AuditLog", {
  name: "AuditLogEntry",
  ...NODE_LOOKUP,
  findUnique: (id, ctx) => ({ id, AND: [visibleAuditEntries(ctx.viewer)] }),
  authScopes: { MANAGE_USERS: true },
  fields: (t) => ({
    at: t.expose("at", { type: "DateTime" }),
    action: t.exposeString("action"),
    targetType: t.exposeString("targetType"),
    targetId: t.exposeString("targetId", { nullable: true }),
    actorUserId: t.exposeID("actorUserId", { nullable: true }),
    actorTokenId: t.exposeID("actorTokenId", { nullable: true }),
    actorName: t.exposeString("actorName", {
      nullable: true,
      description:
        "The actor's user name when the entry was written (`cli:<os user>` for the command line); it stays when the user is deleted. Null for entries written before it was kept.",
    }),
    details: t.field({
      type: "JSON",
      description: "Never holds a secret value.",
      resolve: (e) => e.details,
    }),
  }),
});

builder.queryField("auditLog", (t) =>
  t.prismaConnection(
    {
      type: AuditLogEntry,
      cursor: "id",
      authScopes: { MANAGE_USERS: true },
      description: "Changes to connections, users and tokens, newest first.",
      resolve: (query, _root, _args, ctx) =>
        ctx.prisma.auditLog.findMany({
          ...query,
          // Entries about a connection the viewer does not see name it and what changed.
          where: visibleAuditEntries(ctx.viewer),
          orderBy: [{ at: "desc" }, { id: "desc" }],
        }),
    },
    { name: "AuditLogEntryConnection" },
    { name: "AuditLogEntryEdge" },
  ),
);
