// The change feed (docs/behaviour.md §14): every change a sync wrote, paged in sequence order, and
// live as a subscription.
import { type InventoryEvent, InventoryEventType, type Prisma } from "@hyperlens/db";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { visibleInventoryEvents } from "../auth/visibility.ts";
import type { Context } from "../context.ts";
import { ValidationError } from "../errors.ts";
import { feedCursor, followFeed, readFeed, sequenceOfCursor } from "../services/inventory-feed.ts";
import { builder } from "./builder.ts";

const viewScope = { VIEW_INVENTORY: true } as const;

const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

export const InventoryEventTypeEnum = builder.enumType("InventoryEventType", {
  description: "What a change-feed event tells of.",
  values: Object.values(InventoryEventType),
});

const GATEWAY_EVENTS: InventoryEventType[] = ["EDGE_GATEWAY_ADDED", "EDGE_GATEWAY_REMOVED"];

const InventoryEventRef = builder.objectRef<InventoryEvent>("InventoryEvent").implement({
  description:
    "One change a sync wrote. `data` depends on the type (docs/api.md, the change feed).",
  fields: (t) => ({
    id: t.exposeID("id", { description: "Unique per event: what receivers de-duplicate by." }),
    sequence: t.string({
      description: "The feed's order; a later commit always has a higher one.",
      resolve: (e) => e.sequence.toString(),
    }),
    type: t.field({ type: InventoryEventTypeEnum, resolve: (e) => e.type }),
    at: t.expose("at", { type: "DateTime" }),
    connectionId: t.id({ resolve: (e) => encodeGlobalID("Connection", e.connectionId) }),
    syncRunId: t.id({
      nullable: true,
      resolve: (e) => (e.syncRunId ? encodeGlobalID("SyncRun", e.syncRunId) : null),
    }),
    subjectId: t.id({
      nullable: true,
      description: "The VM or edge gateway (global id); null for run-level events.",
      resolve: (e) =>
        e.subjectId
          ? encodeGlobalID(
              GATEWAY_EVENTS.includes(e.type) ? "EdgeGateway" : "VirtualMachine",
              e.subjectId,
            )
          : null,
    }),
    subjectName: t.exposeString("subjectName", { nullable: true }),
    data: t.field({ type: "JSON", resolve: (e) => e.data }),
  }),
});

const InventoryEventFilter = builder.inputType("InventoryEventFilter", {
  fields: (t) => ({
    types: t.field({ type: [InventoryEventTypeEnum], required: false }),
    connectionIds: t.globalIDList({ required: false, description: "Connection ids (global)." }),
    vmId: t.globalID({ required: false, description: "Events about this VM (global id)." }),
    since: t.field({ type: "DateTime", required: false, description: "Events at or after." }),
  }),
});

type FilterInput = typeof InventoryEventFilter.$inferInput;

/** The caller's filter and scope as one condition. */
function feedWhere(ctx: Context, filter: FilterInput | null | undefined) {
  const and: Prisma.InventoryEventWhereInput[] = [visibleInventoryEvents(ctx.viewer)];
  if (filter?.types) and.push({ type: { in: [...filter.types] } });
  if (filter?.connectionIds) {
    const ids = filter.connectionIds.map((id) => {
      if (id.typename !== "Connection")
        throw new ValidationError("Expected connection ids.", "filter.connectionIds");
      return id.id;
    });
    and.push({ connectionId: { in: ids } });
  }
  if (filter?.vmId) {
    if (filter.vmId.typename !== "VirtualMachine")
      throw new ValidationError("Expected a virtual machine id.", "filter.vmId");
    and.push({ subjectId: filter.vmId.id, type: { notIn: GATEWAY_EVENTS } });
  }
  if (filter?.since) and.push({ at: { gte: filter.since } });
  return { AND: and };
}

builder.queryField("inventoryEvents", (t) =>
  t.connection(
    {
      type: InventoryEventRef,
      authScopes: viewScope,
      description:
        "The change feed, oldest first. Page on with `after` = the last cursor you saw: only newer events come back, so polling with it never misses or repeats one.",
      args: { filter: t.arg({ type: InventoryEventFilter, required: false }) },
      resolve: async (_root, args, ctx) => {
        if (args.last != null || args.before != null) {
          throw new ValidationError(
            "The change feed pages forward only: use first and after.",
            "last",
          );
        }
        const first = args.first ?? DEFAULT_PAGE;
        if (first < 0 || first > MAX_PAGE) {
          throw new ValidationError(`first must be between 0 and ${MAX_PAGE}.`, "first");
        }
        const after = args.after ? sequenceOfCursor(args.after) : 0n;
        const rows = await readFeed(ctx.prisma, feedWhere(ctx, args.filter), after, first + 1);
        const page = rows.slice(0, first);
        const edges = page.map((node) => ({ cursor: feedCursor(node.sequence), node }));
        return {
          edges,
          pageInfo: {
            hasNextPage: rows.length > first,
            hasPreviousPage: after > 0n,
            startCursor: edges[0]?.cursor ?? null,
            // With no new events, the cursor given: polling with it stays where it was.
            endCursor: edges.at(-1)?.cursor ?? args.after ?? null,
          },
        };
      },
    },
    { name: "InventoryEventConnection" },
    { name: "InventoryEventEdge" },
  ),
);

builder.subscriptionField("inventoryChanged", (t) =>
  t.field({
    type: InventoryEventRef,
    authScopes: viewScope,
    description:
      "Events as syncs commit them, in sequence order, filtered like inventoryEvents. Resume after a disconnect with inventoryEvents(after: the last cursor).",
    args: { filter: t.arg({ type: InventoryEventFilter, required: false }) },
    subscribe: (_root, args, ctx) => {
      // A filter it refuses is refused now, not at the first read.
      feedWhere(ctx, args.filter);
      // TRAP: docs/behaviour.md §14.7 — visibility is applied where rows are read, never to a
      // notice: a notice carries no event, so none can leak. Read afresh each time (§7.17).
      return followFeed(ctx.prisma, ctx.events, () => feedWhere(ctx, args.filter), ctx.feedPollMs);
    },
    resolve: (event) => event,
  }),
);
