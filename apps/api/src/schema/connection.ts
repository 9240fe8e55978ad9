// Connections to hypervisors: list, read, save (per kind), delete. Settings are visible only with
// the capability that manages that kind; secrets are not fields at all (hasSecret only).

import {
  CONNECTION_KINDS,
  type ConnectionKind,
  MANAGE_CAPABILITY,
  SYNC_OUTCOMES,
} from "@hyperlens/shared";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { canSeeConnection, visibleConnections } from "../auth/visibility.ts";
import type { Context } from "../context.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { checkConnectionGroupChoice, setConnectionGroups } from "../services/connection-groups.ts";
import { type ConnectionInput, deleteConnection, saveConnection } from "../services/connections.ts";
import { connectionSettings } from "../sources/connection-settings.ts";
import { builder } from "./builder.ts";
import { NODE_LOOKUP } from "./global-ids.ts";
import { LocalizedMessageRef, storedLocalizedMessages } from "./localized-message.ts";

export const ConnectionKindEnum = builder.enumType("ConnectionKind", {
  description: "The kind of hypervisor a connection talks to.",
  values: CONNECTION_KINDS,
});

export const SyncOutcomeEnum = builder.enumType("SyncOutcome", {
  values: SYNC_OUTCOMES,
});

const mayManage = (kind: ConnectionKind) => ({ [MANAGE_CAPABILITY[kind]]: true });
const mayView = {
  $any: { VIEW_INVENTORY: true, MANAGE_PROXMOX: true, MANAGE_VCD: true, MANAGE_VCENTER: true },
};

export const ConnectionNode = builder.prismaNode("Connection", {
  ...NODE_LOOKUP,
  // TRAP: docs/behaviour.md §7.9 — node(id) would show a connection of a group the viewer is not granted.
  findUnique: (id, ctx) => ({ id, AND: [visibleConnections(ctx.viewer)] }),
  description:
    "A connection to a Proxmox VE cluster, a Cloud Director install or a vCenter server.",
  authScopes: mayView,
  fields: (t) => {
    // TRAP: docs/behaviour.md §7 — connection settings are hidden from anyone without that kind's capability.
    const setting = {
      authScopes: (c: { kind: ConnectionKind }) => mayManage(c.kind),
      unauthorizedResolver: () => null,
    };
    return {
      kind: t.field({ type: ConnectionKindEnum, resolve: (c) => c.kind }),
      name: t.exposeString("name"),
      isActive: t.exposeBoolean("isActive"),
      lastSyncAt: t.expose("lastSyncAt", { type: "DateTime", nullable: true }),
      lastSyncOutcome: t.field({
        type: SyncOutcomeEnum,
        nullable: true,
        resolve: (c) => c.lastSyncOutcome,
      }),
      lastSyncMessage: t.exposeString("lastSyncMessage", { nullable: true }),
      lastSyncMessageTexts: t.field({
        type: [LocalizedMessageRef],
        nullable: true,
        description:
          "lastSyncMessage as codes and parameters, one per sentence (a failure: our frame, the hypervisor's words verbatim inside it); null where the server has no codes for its message.",
        resolve: (c) => storedLocalizedMessages(c.lastSyncMessageTexts),
      }),
      lastSuccessAt: t.expose("lastSuccessAt", { type: "DateTime", nullable: true }),
      consecutiveFailures: t.exposeInt("consecutiveFailures"),
      lastErrorClass: t.exposeString("lastErrorClass", { nullable: true }),
      url: t.exposeString("baseUrl", {
        ...setting,
        nullable: true,
        description: "The base address, https only.",
      }),
      username: t.exposeString("username", { ...setting, nullable: true }),
      tokenId: t.exposeString("tokenId", {
        ...setting,
        nullable: true,
        description: "Proxmox: the API token name; null for password login.",
      }),
      isProvider: t.exposeBoolean("isProvider", {
        ...setting,
        nullable: true,
        description: "Director: logs in as a provider administrator (user@System).",
      }),
      verifyTls: t.exposeBoolean("verifyTls", { ...setting, nullable: true }),
      caPem: t.exposeString("caPem", { ...setting, nullable: true }),
      syncIntervalSeconds: t.exposeInt("syncIntervalSeconds", { ...setting, nullable: true }),
      privilegeWarning: t.exposeString("privilegeWarning", { ...setting, nullable: true }),
      maxConcurrentRequests: t.int({
        ...setting,
        nullable: true,
        description:
          "Requests in flight at once to this hypervisor (default 16 for Proxmox, 4 for the others).",
        resolve: (c) => connectionSettings(c).maxConcurrentRequests,
      }),
      maxRequestsPerNode: t.int({
        ...setting,
        nullable: true,
        description:
          "Proxmox: requests in flight at once to one node (default 2 of pveproxy's 3 workers); null for the other kinds.",
        resolve: (c) => connectionSettings(c).maxRequestsPerNode,
      }),
      lightPollSeconds: t.int({
        ...setting,
        nullable: true,
        description:
          "Seconds between light polls, which read only the guest lists between full syncs (0: off).",
        resolve: (c) => connectionSettings(c).lightPollSeconds,
      }),
      hasSecret: t.boolean({
        ...setting,
        nullable: true,
        description: "Whether a secret is stored. The secret itself is never returned.",
        select: { secret: { select: { updatedAt: true } } },
        resolve: (c) => c.secret !== null,
      }),
      secretUpdatedAt: t.field({
        ...setting,
        type: "DateTime",
        nullable: true,
        select: { secret: { select: { updatedAt: true } } },
        resolve: (c) => c.secret?.updatedAt ?? null,
      }),
      createdAt: t.expose("createdAt", { type: "DateTime" }),
      updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    };
  },
});

builder.queryFields((t) => ({
  connections: t.prismaField({
    type: [ConnectionNode],
    authScopes: mayView,
    args: { kind: t.arg({ type: ConnectionKindEnum, required: false }) },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.connection.findMany({
        ...query,
        where: { ...(args.kind ? { kind: args.kind } : {}), AND: [visibleConnections(ctx.viewer)] },
        orderBy: { name: "asc" },
      }),
  }),
  connection: t.prismaField({
    type: ConnectionNode,
    nullable: true,
    authScopes: mayView,
    args: { id: t.arg.globalID({ required: true, for: [ConnectionNode] }) },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.connection.findFirst({
        ...query,
        where: { id: args.id.id, AND: [visibleConnections(ctx.viewer)] },
      }),
  }),
}));

const baseInputFields = (t: PothosInputFields) => ({
  id: t.globalID({
    required: false,
    for: [ConnectionNode],
    description: "Edit this connection; omit to create.",
  }),
  name: t.string({ required: true }),
  url: t.string({ required: true, description: "Base address, e.g. https://pve.example:8006" }),
  username: t.string({ required: true }),
  secret: t.string({
    required: false,
    description:
      "Password or token secret. Blank or the placeholder keeps the stored one when editing, unless url, username or tokenId changes: then it must be given again.",
  }),
  verifyTls: t.boolean({
    required: false,
    description: "Verify the server's certificate (default true).",
  }),
  caPem: t.string({
    required: false,
    description: "The server's CA certificate (PEM), if not publicly trusted.",
  }),
  syncIntervalSeconds: t.int({ required: false }),
  isActive: t.boolean({ required: false }),
  maxConcurrentRequests: t.int({
    required: false,
    description: "Requests in flight at once (1–16; default 16 for Proxmox, 4 for the others).",
  }),
  lightPollSeconds: t.int({
    required: false,
    description: "Seconds between light polls (0: off, or 5–3600; default 15).",
  }),
  groupIds: t.globalIDList({
    required: false,
    description:
      "The connection groups it is in (of those you are shown; others are kept). Omit to leave them; required on create unless you see every connection.",
  }),
});
type PothosInputFields = Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0];

export const ProxmoxConnectionInput = builder.inputType("ProxmoxConnectionInput", {
  fields: (t) => ({
    ...baseInputFields(t),
    tokenId: t.string({
      required: false,
      description: "API token name (the part after !). Empty: log in with user@realm and password.",
    }),
    maxRequestsPerNode: t.int({
      required: false,
      description:
        "Requests in flight at once to one node (1–16, default 2: each node's pveproxy has 3 workers, one is left for its own web UI).",
    }),
  }),
});

export const VcdConnectionInput = builder.inputType("VcdConnectionInput", {
  fields: (t) => ({
    ...baseInputFields(t),
    isProvider: t.boolean({
      required: false,
      description: "Log in as a provider administrator (user@System).",
    }),
  }),
});

export const VcenterConnectionInput = builder.inputType("VcenterConnectionInput", {
  fields: (t) => baseInputFields(t),
});

/** The row ids of ConnectionGroup global ids; another type's id is bad input on `field`. */
export function groupIdsOf(ids: readonly { typename: string; id: string }[], field: string) {
  if (ids.some((id) => id.typename !== "ConnectionGroup"))
    throw new ValidationError("Those are not connection group ids.", field);
  return ids.map((id) => id.id);
}

export type SaveInput = Omit<ConnectionInput, "id"> & {
  id?: { id: string } | null;
  groupIds?: readonly { typename: string; id: string }[] | null;
};

async function save(kind: ConnectionKind, input: SaveInput, ctx: Context) {
  const id = input.id?.id ?? null;
  // TRAP: docs/behaviour.md §7.9 — editing a connection the viewer does not see answers as for a missing id.
  if (id && !canSeeConnection(ctx.viewer, id))
    throw new NotFoundError(`No ${kind} connection with id ${id} exists.`);
  const { groupIds: rawGroupIds, ...fields } = input;
  const groupIds = await checkConnectionGroupChoice(
    ctx.prisma,
    ctx.viewer,
    rawGroupIds && groupIdsOf(rawGroupIds, "groupIds"),
    id === null,
  );
  const connection = await saveConnection(
    ctx.prisma,
    ctx.secrets,
    kind,
    { ...fields, id },
    ctx.viewer,
    ctx.targetPolicy,
  );
  if (groupIds) await regroupConnection(ctx, connection.id, groupIds);
  return connection;
}

/** Sets a connection's groups as the request's viewer, telling whose scope it changed. */
export function regroupConnection(ctx: Context, connectionId: string, groupIds: readonly string[]) {
  return setConnectionGroups(
    ctx.prisma,
    connectionId,
    groupIds,
    ctx.viewer,
    ctx.credentialChanges.announce,
  );
}

builder.mutationFields((t) => {
  /** Creates or edits a connection of `kind`; a validation failure comes back as a typed result. */
  const saveMutation = (
    kind: ConnectionKind,
    input:
      | typeof ProxmoxConnectionInput
      | typeof VcdConnectionInput
      | typeof VcenterConnectionInput,
  ) =>
    t.prismaField({
      type: ConnectionNode,
      authScopes: mayManage(kind),
      errors: { types: [ValidationError] },
      args: { input: t.arg({ type: input, required: true }) },
      resolve: (_query, _root, args, ctx) => save(kind, args.input, ctx),
    });
  return {
    saveProxmoxConnection: saveMutation("PROXMOX", ProxmoxConnectionInput),
    saveVcdConnection: saveMutation("VCD", VcdConnectionInput),
    saveVcenterConnection: saveMutation("VCENTER", VcenterConnectionInput),
    deleteConnection: t.id({
      description: "Deletes a connection and all its inventory; returns the deleted id.",
      authScopes: { signedIn: true },
      args: { id: t.arg.globalID({ required: true, for: [ConnectionNode] }) },
      resolve: async (_root, args, ctx) => {
        const connection = await ctx.prisma.connection.findFirst({
          where: { id: args.id.id, AND: [visibleConnections(ctx.viewer)] },
        });
        if (!connection || !ctx.viewer?.capabilities.has(MANAGE_CAPABILITY[connection.kind])) {
          throw new NotFoundError("No such connection, or you may not manage it.");
        }
        await deleteConnection(ctx.prisma, connection.id, ctx.viewer);
        return encodeGlobalID("Connection", connection.id);
      },
    }),
  };
});
