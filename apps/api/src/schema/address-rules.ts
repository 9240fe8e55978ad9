// Address rules over GraphQL (docs/behaviour.md §10.9): read by anyone who sees the inventory,
// previewed and saved globally by administrators and per connection by whoever manages its kind.
import {
  type AddressRules,
  DEFAULT_ADDRESS_RULES,
  localizedMessage,
  MANAGE_CAPABILITY,
  PRIMARY_FAMILIES,
  PRIMARY_ORIGINS,
  SUGGESTED_INTERFACE_PATTERNS,
  type SuggestedInterfacePattern,
} from "@hyperlens/shared";
import {
  type GuestAddressChange,
  type RulesChangeSummary,
  readEffectiveAddressRules,
  readSavedGlobalAddressRules,
} from "@hyperlens/sync";
import { visibleConnections, visibleVms } from "../auth/visibility.ts";
import type { Context } from "../context.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import {
  previewConnectionAddressRules,
  previewGlobalAddressRules,
  saveConnectionAddressRules,
  saveGlobalAddressRules,
} from "../services/address-rules.ts";
import { announceFeedAdvanced } from "../syncs/progress-events.ts";
import { builder } from "./builder.ts";
import { ConnectionNode } from "./connection.ts";
import { AddressRejectRuleEnum } from "./inventory-enums.ts";
import { LocalizedMessageRef } from "./localized-message.ts";

const mayView = {
  $any: { VIEW_INVENTORY: true, MANAGE_PROXMOX: true, MANAGE_VCD: true, MANAGE_VCENTER: true },
};

const PrimaryFamilyEnum = builder.enumType("PrimaryAddressFamily", {
  description: "Which address family the primary address is taken from first.",
  values: PRIMARY_FAMILIES,
});
const PrimaryOriginEnum = builder.enumType("PrimaryAddressOrigin", {
  description:
    "CONFIG_FIRST: an address the hypervisor's configuration declares before one the guest reports; GUEST_FIRST: the reverse.",
  values: PRIMARY_ORIGINS,
});

const PrimaryRuleRef = builder.objectRef<AddressRules["primary"]>("PrimaryAddressRule").implement({
  description:
    "How the primary address is picked among accepted ones: first preferred subnet, then family, then origin, then the order reported.",
  fields: (t) => ({
    preferredSubnets: t.exposeStringList("preferredSubnets"),
    family: t.field({ type: PrimaryFamilyEnum, resolve: (p) => p.family }),
    origin: t.field({ type: PrimaryOriginEnum, resolve: (p) => p.origin }),
  }),
});

const AddressRulesRef = builder.objectRef<AddressRules>("AddressRules").implement({
  description:
    "Which reported addresses are a guest's, and which is its primary (docs/behaviour.md §10.9).",
  fields: (t) => ({
    ignoredInterfaces: t.exposeStringList("ignoredInterfaces", {
      description:
        "Interface name patterns (`*`, `?`, any case) whose addresses are not the guest's.",
    }),
    permittedSubnets: t.exposeStringList("permittedSubnets", {
      description: "When not empty, only addresses inside one of these count.",
    }),
    ignoredSubnets: t.exposeStringList("ignoredSubnets"),
    dropLinkLocal: t.exposeBoolean("dropLinkLocal"),
    keepUnmatchedMac: t.exposeBoolean("keepUnmatchedMac", {
      description: "Keep addresses of guest interfaces whose MAC is on none of the VM's NICs.",
    }),
    primary: t.field({ type: PrimaryRuleRef, resolve: (r) => r.primary }),
  }),
});

const SuggestedPatternRef = builder
  .objectRef<SuggestedInterfacePattern>("SuggestedInterfacePattern")
  .implement({
    fields: (t) => ({
      pattern: t.exposeString("pattern"),
      isDefault: t.exposeBoolean("isDefault", { description: "On in the shipped rules." }),
      why: t.exposeString("why"),
    }),
  });

interface Settings {
  global: AddressRules;
  isShipped: boolean;
}

const SettingsRef = builder.objectRef<Settings>("AddressRulesSettings").implement({
  fields: (t) => ({
    global: t.field({ type: AddressRulesRef, resolve: (s) => s.global }),
    isShipped: t.exposeBoolean("isShipped", {
      description: "Nobody has saved global rules: the shipped ones apply.",
    }),
    shipped: t.field({ type: AddressRulesRef, resolve: () => DEFAULT_ADDRESS_RULES }),
    suggestedInterfacePatterns: t.field({
      type: [SuggestedPatternRef],
      resolve: () => [...SUGGESTED_INTERFACE_PATTERNS],
    }),
  }),
});

const ConnectionRulesRef = builder
  .objectRef<{ rules: AddressRules; isInherited: boolean }>("ConnectionAddressRules")
  .implement({
    fields: (t) => ({
      isInherited: t.exposeBoolean("isInherited", {
        description: "The connection follows the global rules.",
      }),
      rules: t.field({
        type: AddressRulesRef,
        description: "The rules its guests are judged by.",
        resolve: (r) => r.rules,
      }),
    }),
  });

builder.objectField(ConnectionNode, "addressRules", (t) =>
  t.field({
    type: ConnectionRulesRef,
    resolve: (connection, _args, ctx) => readEffectiveAddressRules(ctx.prisma, connection.id),
  }),
);

const DroppedAddressRef = builder
  .objectRef<GuestAddressChange["dropped"][number]>("DroppedAddress")
  .implement({
    fields: (t) => ({
      address: t.exposeString("address"),
      rule: t.field({ type: AddressRejectRuleEnum, resolve: (d) => d.rule }),
      reason: t.exposeString("reason"),
      reasonText: t.field({
        type: LocalizedMessageRef,
        nullable: true,
        description: "reason as a code and parameters (docs/behaviour.md §11.4).",
        resolve: (d) => (d.reasonText ? localizedMessage(d.reasonText) : null),
      }),
    }),
  });

const PreviewChangeRef = builder
  .objectRef<GuestAddressChange>("AddressRulesPreviewChange")
  .implement({
    fields: (t) => ({
      vm: t.prismaField({
        type: "VirtualMachine",
        // Only visible connections are previewed; the filter makes sure no other guest is served.
        resolve: (query, change, _args, ctx) =>
          ctx.prisma.virtualMachine.findFirstOrThrow({
            ...query,
            where: { id: change.vmId, AND: [visibleVms(ctx.viewer)] },
          }),
      }),
      added: t.exposeStringList("added", { description: "Addresses the guest would gain." }),
      dropped: t.field({ type: [DroppedAddressRef], resolve: (c) => c.dropped }),
      primaryBefore: t.exposeString("primaryBefore", { nullable: true }),
      primaryAfter: t.exposeString("primaryAfter", { nullable: true }),
    }),
  });

const PreviewRef = builder.objectRef<RulesChangeSummary>("AddressRulesPreview").implement({
  description:
    "What the rules change on the stored inventory, judged without asking any hypervisor.",
  fields: (t) => ({
    vmCount: t.exposeInt("vmCount", { description: "Guests judged." }),
    changedVmCount: t.exposeInt("changedVmCount"),
    addedCount: t.exposeInt("addedCount"),
    droppedCount: t.exposeInt("droppedCount"),
    primaryChangedCount: t.exposeInt("primaryChangedCount"),
    changes: t.field({
      type: [PreviewChangeRef],
      description: "The first 200 guests whose addresses or primary change, by name.",
      resolve: (s) => s.changes,
    }),
    isTruncated: t.exposeBoolean("isTruncated"),
  }),
});

const PrimaryRuleInput = builder.inputType("PrimaryAddressRuleInput", {
  fields: (t) => ({
    preferredSubnets: t.stringList({ required: true }),
    family: t.field({ type: PrimaryFamilyEnum, required: true }),
    origin: t.field({ type: PrimaryOriginEnum, required: true }),
  }),
});

const RulesInput = builder.inputType("AddressRulesInput", {
  fields: (t) => ({
    ignoredInterfaces: t.stringList({ required: true }),
    permittedSubnets: t.stringList({ required: true }),
    ignoredSubnets: t.stringList({ required: true }),
    dropLinkLocal: t.boolean({ required: true }),
    keepUnmatchedMac: t.boolean({ required: true }),
    primary: t.field({ type: PrimaryRuleInput, required: true }),
  }),
});

/** The connection, if the viewer sees it and may manage its kind; otherwise not found. */
async function manageableConnection(ctx: Context, id: { id: string; typename: string }) {
  if (id.typename !== "Connection")
    throw new ValidationError("That is not a connection id.", "connectionId");
  const connection = await ctx.prisma.connection.findFirst({
    where: { id: id.id, AND: [visibleConnections(ctx.viewer)] },
    select: { id: true, kind: true },
  });
  if (!connection || !ctx.viewer?.capabilities.has(MANAGE_CAPABILITY[connection.kind])) {
    throw new NotFoundError("No such connection, or you may not manage it.");
  }
  return connection;
}

/**
 * The global rules judge the guests of every connection that follows them: only an administrator
 * who sees every connection may preview or change them, not a token limited to some groups.
 */
function requireAdminOfAll(ctx: Context) {
  if (!ctx.viewer?.isAdmin || !ctx.viewer.scope.all) {
    throw new ForbiddenError(
      "Only an administrator who sees every connection may preview or set the global address rules.",
    );
  }
}

builder.queryFields((t) => ({
  addressRules: t.field({
    type: SettingsRef,
    authScopes: mayView,
    description:
      "The global address rules, the shipped ones and the interface patterns the editor offers.",
    resolve: async (_root, _args, ctx) => {
      const saved = await readSavedGlobalAddressRules(ctx.prisma);
      return { global: saved ?? DEFAULT_ADDRESS_RULES, isShipped: saved === null };
    },
  }),
  previewAddressRules: t.field({
    type: PreviewRef,
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    description:
      "What rules would change, guest by guest, without saving them or asking any hypervisor. Without connectionId: global rules (administrators) over every connection that follows them; rules null: the shipped ones. With connectionId: that connection's own rules; rules null: the global ones again.",
    args: {
      connectionId: t.arg.globalID({ required: false, for: [ConnectionNode] }),
      rules: t.arg({ type: RulesInput, required: false }),
    },
    resolve: async (_root, args, ctx) => {
      if (!args.connectionId) {
        requireAdminOfAll(ctx);
        return previewGlobalAddressRules(ctx.prisma, args.rules ?? null);
      }
      const connection = await manageableConnection(ctx, args.connectionId);
      return previewConnectionAddressRules(ctx.prisma, connection.id, args.rules ?? null);
    },
  }),
}));

builder.mutationFields((t) => ({
  setGlobalAddressRules: t.field({
    type: SettingsRef,
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    description:
      "Saves the global address rules (null: back to the shipped ones) and applies them at once to every connection that follows them; audited.",
    args: { rules: t.arg({ type: RulesInput, required: false }) },
    resolve: async (_root, args, ctx) => {
      requireAdminOfAll(ctx);
      await saveGlobalAddressRules(
        ctx.prisma,
        announceFeedAdvanced(ctx.events),
        args.rules ?? null,
        ctx.viewer,
      );
      const saved = await readSavedGlobalAddressRules(ctx.prisma);
      return { global: saved ?? DEFAULT_ADDRESS_RULES, isShipped: saved === null };
    },
  }),
  setConnectionAddressRules: t.prismaField({
    type: ConnectionNode,
    authScopes: { signedIn: true },
    errors: { types: [ValidationError] },
    description:
      "Saves a connection's own address rules (null: it follows the global ones again) and applies them at once to its guests; audited.",
    args: {
      connectionId: t.arg.globalID({ required: true, for: [ConnectionNode] }),
      rules: t.arg({ type: RulesInput, required: false }),
    },
    resolve: async (query, _root, args, ctx) => {
      const connection = await manageableConnection(ctx, args.connectionId);
      await saveConnectionAddressRules(
        ctx.prisma,
        announceFeedAdvanced(ctx.events),
        connection.id,
        args.rules ?? null,
        ctx.viewer,
      );
      return ctx.prisma.connection.findUniqueOrThrow({ ...query, where: { id: connection.id } });
    },
  }),
}));
