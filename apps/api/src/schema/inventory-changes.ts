// "What changed since …" (docs/behaviour.md §9.51): the guests added, removed and changed between
// two instants, each group paged.
import { resolveOffsetConnection } from "@pothos/plugin-relay";
import { visibleConnectionIds, visibleVms } from "../auth/visibility.ts";
import {
  type ChangeWindow,
  checkChangeWindow,
  countChanges,
  type GuestChange,
  type GuestChangeKind,
  readChanges,
} from "../services/inventory-changes.ts";
import { builder } from "./builder.ts";
import { LocalizedMessageRef, storedLocalizedMessage } from "./localized-message.ts";

const GuestChangeRef = builder.objectRef<GuestChange>("GuestChange").implement({
  description: "A guest that differs between the two instants.",
  fields: (t) => ({
    vm: t.prismaField({
      type: "VirtualMachine",
      // Rows were read within the viewer's connections; the condition again makes sure.
      resolve: (query, change, _args, ctx) =>
        ctx.prisma.virtualMachine.findFirstOrThrow({
          ...query,
          where: { id: change.vmId, AND: [visibleVms(ctx.viewer)] },
        }),
    }),
    at: t.expose("at", { type: "DateTime", description: "Its last event in the window." }),
    changes: t.field({
      type: "JSON",
      description:
        "Changed guests: { field: { from, to } }, from the window's start to its end (a field that went back is left out). Removed guests: { reason } (and reasonText, the stored code of that reason; read the reasonText field). Added guests: {}.",
      resolve: (c) => c.changes,
    }),
    reasonText: t.field({
      type: LocalizedMessageRef,
      nullable: true,
      description:
        "A removed guest's reason as a code and parameters; null where the removal stored none.",
      resolve: (c) => {
        const text = storedLocalizedMessage(c.changes.reasonText);
        // Only while it still says the stored reason word for word (docs/behaviour.md §11.4).
        return text && text.message === c.changes.reason ? text : null;
      },
    }),
  }),
});

const GuestChangeConnection = builder.connectionObject(
  { type: GuestChangeRef, name: "GuestChangeConnection" },
  { name: "GuestChangeEdge" },
);

const ChangeCountsRef = builder
  .objectRef<Record<GuestChangeKind, number>>("InventoryChangeCounts")
  .implement({
    fields: (t) => ({
      added: t.exposeInt("ADDED"),
      removed: t.exposeInt("REMOVED"),
      changed: t.exposeInt("CHANGED"),
    }),
  });

const InventoryChangesRef = builder.objectRef<ChangeWindow>("InventoryChanges").implement({
  description: "The guests that differ between `since` and `until`, grouped by how.",
  fields: (t) => {
    const group = (kind: GuestChangeKind, description: string) =>
      t.connection(
        {
          type: GuestChangeRef,
          description: `${description} By name; up to 100 a page.`,
          resolve: (window, args, ctx) =>
            resolveOffsetConnection({ args }, (page) =>
              readChanges(ctx.prisma, visibleConnectionIds(ctx.viewer), window, kind, page),
            ),
        },
        GuestChangeConnection,
      );
    return {
      since: t.expose("since", { type: "DateTime" }),
      until: t.expose("until", { type: "DateTime" }),
      counts: t.field({
        type: ChangeCountsRef,
        description: "How many guests each group holds.",
        resolve: (w, _a, ctx) => countChanges(ctx.prisma, visibleConnectionIds(ctx.viewer), w),
      }),
      added: group("ADDED", "Absent at `since`, present at `until`."),
      removed: group("REMOVED", "Present at `since`, removed by `until`."),
      changed: group("CHANGED", "Present at both, with different fields."),
    };
  },
});

builder.queryField("inventoryChanges", (t) =>
  t.field({
    type: InventoryChangesRef,
    authScopes: { VIEW_INVENTORY: true },
    description:
      "What changed between two instants, from the guests' history: events after `since`, up to and including `until`. Only the connections the viewer sees count.",
    args: {
      since: t.arg({ type: "DateTime", required: true }),
      until: t.arg({ type: "DateTime", required: false, description: "Default: now." }),
    },
    resolve: (_root, args) => {
      const window = { since: args.since, until: args.until ?? new Date() };
      checkChangeWindow(window);
      return window;
    },
  }),
);
