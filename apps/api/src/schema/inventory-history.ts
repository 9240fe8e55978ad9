// The Servers page's history charts (docs/behaviour.md §9.50).
import { visibleConnections } from "../auth/visibility.ts";
import {
  type HistoryPoint,
  type HistorySeries,
  readInventoryHistory,
} from "../services/inventory-history.ts";
import { builder } from "./builder.ts";
import { ConnectionKindEnum } from "./connection.ts";

const HistoryPointRef = builder.objectRef<HistoryPoint>("InventoryHistoryPoint").implement({
  description: "A source's guests at one instant: the sum of its connections' latest samples.",
  fields: (t) => ({
    at: t.expose("at", { type: "DateTime" }),
    vms: t.exposeInt("vms", { description: "VMs, templates left out." }),
    containers: t.exposeInt("containers"),
    running: t.exposeInt("running", { description: "Running VMs and containers." }),
  }),
});

const HistorySeriesRef = builder.objectRef<HistorySeries>("InventoryHistorySeries").implement({
  fields: (t) => ({
    source: t.field({ type: ConnectionKindEnum, resolve: (s) => s.source }),
    points: t.field({
      type: [HistoryPointRef],
      description:
        "Oldest first; the first is at `from` when a sample came before it. At most 500: a long range keeps the last point of each of 500 equal slices.",
      resolve: (s) => s.points,
    }),
  }),
});

builder.queryField("inventoryHistory", (t) =>
  t.field({
    type: [HistorySeriesRef],
    authScopes: { VIEW_INVENTORY: true },
    description:
      "VMs, containers and running guests over time, per source, from the samples each sync (and each light poll that changed something) stores when it ends. Only the connections the viewer sees count.",
    args: {
      from: t.arg({ type: "DateTime", required: true }),
      to: t.arg({ type: "DateTime", required: false, description: "Default: now." }),
      source: t.arg({ type: ConnectionKindEnum, required: false }),
    },
    resolve: (_root, args, ctx) =>
      readInventoryHistory(ctx.prisma, visibleConnections(ctx.viewer), {
        from: args.from,
        to: args.to ?? new Date(),
        source: args.source,
      }),
  }),
);
