// Sync runs (history), Test and Sync, and live sync progress.
import type { SyncCounts } from "@hyperlens/shared";
import {
  type ConnectionKind,
  localizedMessage,
  MANAGE_CAPABILITY,
  SYNC_TRIGGERS,
} from "@hyperlens/shared";
import { ZERO_COUNTS } from "@hyperlens/sync";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { GraphQLError } from "graphql";
import { filter } from "graphql-yoga";
import { canSeeConnection, ofVisibleConnections, visibleConnections } from "../auth/visibility.ts";
import type { Context } from "../context.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import {
  type TestResult,
  testConnection,
  testConnectionInput,
} from "../services/connection-test.ts";
import { syncConnection } from "../syncs/coordinator.ts";
import {
  type ManualSyncCooldown,
  runWithinManualSyncCooldown,
} from "../syncs/manual-sync-cooldown.ts";
import type { SyncProgress } from "../syncs/progress-events.ts";
import { builder } from "./builder.ts";
import {
  ConnectionNode,
  ProxmoxConnectionInput,
  type SaveInput,
  SyncOutcomeEnum,
  VcdConnectionInput,
  VcenterConnectionInput,
} from "./connection.ts";
import { NODE_LOOKUP } from "./global-ids.ts";
import { LocalizedMessageRef, storedLocalizedMessages } from "./localized-message.ts";

builder.scalarType("JSON", {
  description: "Any JSON value (source-specific details, previews).",
  serialize: (value) => value,
  parseValue: () => {
    throw new GraphQLError("JSON values are output only.");
  },
});

const SyncTriggerEnum = builder.enumType("SyncTrigger", {
  values: SYNC_TRIGGERS,
});

const SyncCountsRef = builder.objectRef<SyncCounts>("SyncCounts").implement({
  description: "What a sync did (or, in a dry run, would do).",
  fields: (t) => ({
    seen: t.exposeInt("seen"),
    added: t.exposeInt("added"),
    changed: t.exposeInt("changed"),
    restored: t.exposeInt("restored"),
    removed: t.exposeInt("removed"),
    unchanged: t.exposeInt("unchanged"),
    rowsWritten: t.exposeInt("rowsWritten"),
  }),
});

const ManualSyncCooldownRef = builder
  .objectRef<ManualSyncCooldown>("ManualSyncCooldown")
  .implement({
    description:
      "Why a manual sync request got the connection's last run back instead of reading the hypervisor again.",
    fields: (t) => ({
      secondsSinceLastRun: t.exposeInt("secondsSinceLastRun"),
      nextManualSyncAt: t.expose("nextManualSyncAt", { type: "DateTime" }),
      message: t.exposeString("message"),
      messageText: t.field({
        type: LocalizedMessageRef,
        description: "message as a code and parameters.",
        resolve: (c) => localizedMessage(c.text),
      }),
    }),
  });

// The cool-down notices of one request, by run id: only the answer that handed a run back says so.
const cooldownNotices = new WeakMap<Context, Map<string, ManualSyncCooldown>>();

function noticesOf(ctx: Context): Map<string, ManualSyncCooldown> {
  let notices = cooldownNotices.get(ctx);
  if (!notices) {
    notices = new Map();
    cooldownNotices.set(ctx, notices);
  }
  return notices;
}

export const SyncRunNode = builder.prismaNode("SyncRun", {
  ...NODE_LOOKUP,
  // TRAP: docs/behaviour.md §7.9 — node(id) would show a run of a connection the viewer is not granted.
  findUnique: (id, ctx) => ({ id, ...ofVisibleConnections(ctx.viewer) }),
  description: "One sync of one connection: when, why, how it ended, what it did and did not do.",
  authScopes: { VIEW_INVENTORY: true },
  fields: (t) => ({
    connection: t.relation("connection"),
    trigger: t.field({ type: SyncTriggerEnum, resolve: (run) => run.trigger }),
    isDryRun: t.exposeBoolean("isDryRun"),
    correlationId: t.exposeString("correlationId"),
    startedAt: t.expose("startedAt", { type: "DateTime" }),
    finishedAt: t.expose("finishedAt", { type: "DateTime", nullable: true }),
    outcome: t.field({ type: SyncOutcomeEnum, resolve: (run) => run.outcome }),
    counts: t.field({
      type: SyncCountsRef,
      resolve: (run) => ({ ...ZERO_COUNTS, ...(run.counts as Partial<SyncCounts>) }),
    }),
    guardFired: t.exposeBoolean("guardFired"),
    suppressed: t.field({
      type: "JSON",
      description: "What the run did not do and why: skipped lists, removals the guard suppressed.",
      resolve: (run) => run.suppressed,
    }),
    preview: t.field({
      type: "JSON",
      nullable: true,
      description: "Dry runs: what would be added, changed, restored and removed.",
      resolve: (run) => run.preview,
    }),
    message: t.exposeString("message", { nullable: true }),
    messageTexts: t.field({
      type: [LocalizedMessageRef],
      nullable: true,
      description:
        "message as codes and parameters, one per sentence (a failure: our frame, the hypervisor's words verbatim inside it); null where the server has no codes for its message.",
      resolve: (run) => storedLocalizedMessages(run.messageTexts),
    }),
    errorClass: t.exposeString("errorClass", { nullable: true }),
    manualSyncCooldown: t.field({
      type: ManualSyncCooldownRef,
      nullable: true,
      description:
        "Set only in the answer to syncConnection/syncAll, when the request came within the manual-sync cool-down: this run is the connection's last one, handed back instead of a new read of the hypervisor.",
      resolve: (run, _args, ctx) => cooldownNotices.get(ctx)?.get(run.id) ?? null,
    }),
  }),
});

builder.queryField("syncRuns", (t) =>
  t.prismaConnection(
    {
      type: SyncRunNode,
      cursor: "id",
      authScopes: { VIEW_INVENTORY: true },
      description: "Sync history, newest first; of one connection when given.",
      args: { connectionId: t.arg.globalID({ required: false, for: [ConnectionNode] }) },
      resolve: (query, _root, args, ctx) =>
        ctx.prisma.syncRun.findMany({
          ...query,
          where: {
            AND: [
              args.connectionId ? { connectionId: args.connectionId.id } : {},
              ofVisibleConnections(ctx.viewer),
            ],
          },
          orderBy: [{ startedAt: "desc" }, { id: "desc" }],
        }),
    },
    { name: "SyncRunConnection" },
    { name: "SyncRunEdge" },
  ),
);

const ConnectionTestResult = builder.objectRef<TestResult>("ConnectionTestResult").implement({
  description:
    "The outcome of Test: ok, or the class of error and a message an administrator can act on.",
  fields: (t) => ({
    ok: t.exposeBoolean("ok"),
    errorClass: t.exposeString("errorClass", { nullable: true }),
    message: t.exposeString("message"),
    messageText: t.field({
      type: LocalizedMessageRef,
      nullable: true,
      description:
        "message as a code and parameters; null where the server has no code for it (a hypervisor's own error).",
      resolve: (result) => (result.text ? localizedMessage(result.text) : null),
    }),
  }),
});

async function requireManaged(ctx: Context, id: string) {
  const connection = await ctx.prisma.connection.findFirst({
    where: { id, AND: [visibleConnections(ctx.viewer)] },
  });
  if (!connection || !ctx.viewer?.capabilities.has(MANAGE_CAPABILITY[connection.kind])) {
    throw new NotFoundError("No such connection, or you may not manage it.");
  }
  return connection;
}

async function startSync(ctx: Context, connectionId: string, dryRun: boolean, wait: boolean) {
  // TRAP: issue 20 — without the cool-down every click or script call reads the whole hypervisor.
  const recent = await runWithinManualSyncCooldown(ctx.prisma, connectionId, {
    isDryRun: dryRun,
    cooldownMs: ctx.manualSyncCooldownMs,
    now: ctx.syncs.now(),
  });
  if (recent) {
    noticesOf(ctx).set(recent.run.id, recent.cooldown);
    return recent.run;
  }
  const trigger = ctx.viewer?.kind === "API_TOKEN" ? "API" : "MANUAL";
  const started = syncConnection(ctx, connectionId, { trigger, dryRun });
  const runId = wait ? (await started.done).syncRunId : await started.syncRunId;
  return ctx.prisma.syncRun.findUniqueOrThrow({ where: { id: runId } });
}

/** Tests a form's input of `kind` as its save mutation would take it, saving nothing. */
async function testUnsaved(ctx: Context, kind: ConnectionKind, input: SaveInput) {
  const id = input.id?.id ?? null;
  // TRAP: docs/behaviour.md §7.9 — testing an edit of a connection the viewer does not see answers
  // as for a missing id, as saving it does.
  if (id && !canSeeConnection(ctx.viewer, id))
    throw new NotFoundError(`No ${kind} connection with id ${id} exists.`);
  const { groupIds: _groups, ...fields } = input;
  return testConnectionInput(ctx, kind, { ...fields, id }, ctx.viewer);
}

builder.mutationFields((t) => {
  const testUnsavedMutation = (
    kind: ConnectionKind,
    input:
      | typeof ProxmoxConnectionInput
      | typeof VcdConnectionInput
      | typeof VcenterConnectionInput,
  ) =>
    t.field({
      type: ConnectionTestResult,
      // The same capability as saving: a Test sends the entered secret to the entered address.
      authScopes: { [MANAGE_CAPABILITY[kind]]: true },
      errors: { types: [ValidationError] },
      description:
        "Tests the input of the matching save mutation before it is saved: the same checks as saving (a ValidationError answers bad input), then logs in and reads the node list. Writes nothing. A blank secret on an edit uses the stored one only where saving would keep it.",
      args: { input: t.arg({ type: input, required: true }) },
      resolve: (_root, args, ctx) => testUnsaved(ctx, kind, args.input),
    });
  return {
    testUnsavedProxmoxConnection: testUnsavedMutation("PROXMOX", ProxmoxConnectionInput),
    testUnsavedVcdConnection: testUnsavedMutation("VCD", VcdConnectionInput),
    testUnsavedVcenterConnection: testUnsavedMutation("VCENTER", VcenterConnectionInput),
    testConnection: t.field({
      type: ConnectionTestResult,
      authScopes: { signedIn: true },
      description:
        "Logs in to the hypervisor and reads its node list; reports the real reason on failure.",
      args: { id: t.arg.globalID({ required: true, for: [ConnectionNode] }) },
      resolve: async (_root, args, ctx) => {
        await requireManaged(ctx, args.id.id);
        return testConnection(ctx, args.id.id);
      },
    }),
    syncConnection: t.prismaField({
      type: SyncRunNode,
      authScopes: { $all: { VIEW_INVENTORY: true, RUN_SYNC: true } },
      description:
        "Starts a sync of one connection and returns its run (RUNNING unless `wait`). A sync already running is joined, never doubled. `dryRun` writes nothing and stores a preview. Within the manual-sync cool-down after the last run started, that run is returned with `manualSyncCooldown` set.",
      args: {
        id: t.arg.globalID({ required: true, for: [ConnectionNode] }),
        dryRun: t.arg.boolean({ required: false, defaultValue: false }),
        wait: t.arg.boolean({ required: false, defaultValue: false }),
      },
      resolve: async (_query, _root, args, ctx) => {
        const exists = await ctx.prisma.connection.count({
          where: { id: args.id.id, AND: [visibleConnections(ctx.viewer)] },
        });
        if (!exists) throw new NotFoundError("No such connection.");
        return startSync(ctx, args.id.id, args.dryRun ?? false, args.wait ?? false);
      },
    }),
    syncAll: t.prismaField({
      type: [SyncRunNode],
      authScopes: { $all: { VIEW_INVENTORY: true, RUN_SYNC: true } },
      description:
        "Starts a sync of every active connection (changes no configuration); a connection within its manual-sync cool-down answers with its last run, `manualSyncCooldown` set.",
      resolve: async (_query, _root, _args, ctx) => {
        const connections = await ctx.prisma.connection.findMany({
          where: { isActive: true, AND: [visibleConnections(ctx.viewer)] },
          orderBy: { name: "asc" },
        });
        return Promise.all(connections.map((c) => startSync(ctx, c.id, false, false)));
      },
    }),
  };
});

const SyncProgressRef = builder.objectRef<SyncProgress>("SyncProgress").implement({
  description: "One step of a running sync.",
  fields: (t) => ({
    connectionId: t.id({ resolve: (p) => encodeGlobalID("Connection", p.connectionId) }),
    syncRunId: t.id({
      nullable: true,
      resolve: (p) => (p.syncRunId ? encodeGlobalID("SyncRun", p.syncRunId) : null),
    }),
    at: t.exposeString("at"),
    type: t.string({ resolve: (p) => p.event.type }),
    phase: t.string({
      nullable: true,
      resolve: (p) => (p.event.type === "phase" ? p.event.phase : null),
    }),
    listKey: t.string({
      nullable: true,
      resolve: (p) => (p.event.type === "list" ? p.event.key : null),
    }),
    listStatus: t.string({
      nullable: true,
      resolve: (p) => (p.event.type === "list" ? p.event.status : null),
    }),
    count: t.int({
      nullable: true,
      resolve: (p) => (p.event.type === "list" ? (p.event.count ?? null) : null),
    }),
    reason: t.string({
      nullable: true,
      resolve: (p) => (p.event.type === "list" ? (p.event.reason ?? null) : null),
    }),
    reasonText: t.field({
      type: LocalizedMessageRef,
      nullable: true,
      description: "reason as a code and parameters, where the server has one.",
      resolve: (p) =>
        p.event.type === "list" && p.event.reasonText ? localizedMessage(p.event.reasonText) : null,
    }),
    counts: t.field({
      type: SyncCountsRef,
      nullable: true,
      resolve: (p) =>
        p.event.type === "counts" || p.event.type === "finished" ? p.event.counts : null,
    }),
    outcome: t.string({
      nullable: true,
      resolve: (p) => (p.event.type === "finished" ? p.event.outcome : null),
    }),
    message: t.string({
      nullable: true,
      resolve: (p) =>
        p.event.type === "finished" || p.event.type === "failed" || p.event.type === "guard"
          ? p.event.message
          : null,
    }),
    messageTexts: t.field({
      type: [LocalizedMessageRef],
      nullable: true,
      description:
        "message as codes and parameters, one per sentence, where the server has them: a finished sync's summary, the guard's sentence, a failure's frame around the hypervisor's own words.",
      resolve: (p) => {
        if (p.event.type === "finished" || p.event.type === "failed")
          return p.event.messageTexts?.map(localizedMessage) ?? null;
        if (p.event.type === "guard" && p.event.messageText)
          return [localizedMessage(p.event.messageText)];
        return null;
      },
    }),
    errorClass: t.string({
      nullable: true,
      resolve: (p) => (p.event.type === "failed" ? p.event.errorClass : null),
    }),
    guardKnown: t.int({
      nullable: true,
      resolve: (p) => (p.event.type === "guard" ? p.event.known : null),
    }),
    guardPresent: t.int({
      nullable: true,
      resolve: (p) => (p.event.type === "guard" ? p.event.present : null),
    }),
  }),
});

builder.subscriptionField("syncProgress", (t) =>
  t.field({
    type: SyncProgressRef,
    authScopes: { VIEW_INVENTORY: true },
    description: "Live progress of syncs: of one connection, or of all when no id is given.",
    args: { connectionId: t.arg.globalID({ required: false, for: [ConnectionNode] }) },
    subscribe: (_root, args, ctx) =>
      // TRAP: docs/behaviour.md §7.9 — every subscriber hears every connection's progress unless each event is filtered.
      filter((progress: SyncProgress) => canSeeConnection(ctx.viewer, progress.connectionId))(
        args.connectionId
          ? ctx.events.subscribe("sync:connection", args.connectionId.id)
          : ctx.events.subscribe("sync:all"),
      ),
    resolve: (progress) => progress,
  }),
);
