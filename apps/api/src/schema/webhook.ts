// Webhook endpoints and their delivery logs (docs/behaviour.md §14.20–§14.29). Administrators
// only: an endpoint is sent the events of every connection it does not filter out, beyond any
// connection-group scope, to an address outside Hyperlens.
import type { InventoryEventType } from "@hyperlens/db";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { ValidationError } from "../errors.ts";
import {
  createWebhook,
  deleteWebhook,
  type EndpointWithSecret,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhook,
  type WebhookInput,
} from "../services/webhooks.ts";
import type { AttemptResult } from "../webhooks/sender.ts";
import { builder } from "./builder.ts";
import { NODE_LOOKUP } from "./global-ids.ts";
import { InventoryEventTypeEnum } from "./inventory-event.ts";

const admin = { admin: true } as const;
const DELIVERY_LOG_PAGE = 100;

builder.prismaObject("WebhookDelivery", {
  description: "One attempt to deliver an event (or a test event) to an endpoint.",
  fields: (t) => ({
    at: t.expose("at", { type: "DateTime" }),
    eventId: t.exposeID("eventId"),
    eventType: t.exposeString("eventType", {
      description: "An InventoryEventType, or WEBHOOK_TEST for a test event.",
    }),
    eventSequence: t.string({
      nullable: true,
      description: "The event's place in the change feed; null for a test event.",
      resolve: (d) => (d.eventSequence === null ? null : String(d.eventSequence)),
    }),
    attempt: t.exposeInt("attempt", { description: "1 for the first attempt at the event." }),
    outcome: t.exposeString("outcome", {
      description:
        "DELIVERED (2xx), FAILED (retried later) or GAVE_UP (failed for the whole retry period: skipped).",
    }),
    statusCode: t.exposeInt("statusCode", { nullable: true }),
    latencyMs: t.exposeInt("latencyMs"),
    error: t.exposeString("error", { nullable: true }),
  }),
});

export const WebhookEndpointNode = builder.prismaNode("WebhookEndpoint", {
  ...NODE_LOOKUP,
  authScopes: admin,
  description:
    "Where the change feed is delivered: one signed POST per event, in order, at least once (docs/api.md, Webhooks).",
  fields: (t) => ({
    url: t.exposeString("url"),
    description: t.exposeString("description"),
    eventTypes: t.field({
      type: [InventoryEventTypeEnum],
      description: "The event types delivered; empty: every type.",
      resolve: (e) => e.eventTypes as InventoryEventType[],
    }),
    connectionIds: t.idList({
      description: "The connections whose events are delivered; empty: every connection.",
      resolve: (e) => e.connectionIds.map((id) => encodeGlobalID("Connection", id)),
    }),
    isEnabled: t.exposeBoolean("isEnabled"),
    disabledReason: t.exposeString("disabledReason", {
      nullable: true,
      description: "Set when the server disabled it after failing continuously.",
    }),
    lastDeliveredSequence: t.string({
      description: "The change-feed sequence delivered (or given up) last; the next is after it.",
      resolve: (e) => String(e.cursor),
    }),
    failedAttempts: t.exposeInt("attempt", {
      description: "Failed attempts at the next event so far.",
    }),
    nextAttemptAt: t.expose("nextAttemptAt", { type: "DateTime", nullable: true }),
    failingSince: t.expose("failingSince", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    deliveries: t.relation("deliveries", {
      description: "The newest delivery attempts first (the last 100 are kept).",
      query: { orderBy: [{ at: "desc" }, { eventSequence: "desc" }], take: DELIVERY_LOG_PAGE },
    }),
  }),
});

const WebhookWithSecretRef = builder.objectRef<EndpointWithSecret>("WebhookWithSecret").implement({
  description:
    "An endpoint and its signing secret. The secret is shown here only, once: store it in the receiver now.",
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointNode, resolve: (r) => r.endpoint }),
    secret: t.exposeString("secret"),
  }),
});

const WebhookTestResultRef = builder.objectRef<AttemptResult>("WebhookTestResult").implement({
  description: "How a test event went; it is in the delivery log too.",
  fields: (t) => ({
    isDelivered: t.exposeBoolean("isDelivered"),
    statusCode: t.exposeInt("statusCode", { nullable: true }),
    latencyMs: t.exposeInt("latencyMs"),
    error: t.exposeString("error", { nullable: true }),
  }),
});

const WebhookInputRef = builder.inputType("WebhookEndpointInput", {
  description: "On update, a field left out keeps its value.",
  fields: (t) => ({
    url: t.string({
      required: false,
      description:
        "https (http and loopback addresses only with HYPERLENS_ALLOW_LOOPBACK_TARGETS=1). Required on create.",
    }),
    description: t.string({ required: false }),
    eventTypes: t.field({
      type: [InventoryEventTypeEnum],
      required: false,
      description: "Deliver only these types; empty: every type.",
    }),
    connectionIds: t.globalIDList({
      required: false,
      description: "Deliver only these connections' events; empty: every connection.",
    }),
    isEnabled: t.boolean({ required: false }),
  }),
});

type RawInput = typeof WebhookInputRef.$inferInput;

function serviceInput(input: RawInput): WebhookInput {
  const ids = input.connectionIds;
  if (ids?.some((id) => id.typename !== "Connection"))
    throw new ValidationError("Those are not connection ids.", "connectionIds");
  return { ...input, connectionIds: ids?.map((id) => id.id) };
}

builder.queryField("webhookEndpoints", (t) =>
  t.prismaField({
    type: [WebhookEndpointNode],
    authScopes: admin,
    description: "Every webhook endpoint, oldest first (administrators only).",
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.webhookEndpoint.findMany({ ...query, orderBy: { createdAt: "asc" } }),
  }),
);

const endpointId = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) =>
  t.arg.globalID({ required: true, for: [WebhookEndpointNode] });

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: WebhookWithSecretRef,
    authScopes: admin,
    errors: { types: [ValidationError] },
    description: "Registers an endpoint; it is sent the events appended from now on.",
    args: { input: t.arg({ type: WebhookInputRef, required: true }) },
    resolve: (_root, args, ctx) =>
      createWebhook(
        ctx.prisma,
        ctx.secrets,
        ctx.targetPolicy,
        serviceInput(args.input),
        ctx.viewer,
      ),
  }),
  updateWebhookEndpoint: t.prismaField({
    type: WebhookEndpointNode,
    authScopes: admin,
    errors: { types: [ValidationError] },
    description:
      "Changes an endpoint. Enabling it again (or a new url) retries the next event at once; nothing is skipped.",
    args: { id: endpointId(t), input: t.arg({ type: WebhookInputRef, required: true }) },
    resolve: (_query, _root, args, ctx) =>
      updateWebhook(ctx.prisma, ctx.targetPolicy, args.id.id, serviceInput(args.input), ctx.viewer),
  }),
  deleteWebhookEndpoint: t.id({
    authScopes: admin,
    description: "Deletes an endpoint and its delivery log. Returns the deleted id.",
    args: { id: endpointId(t) },
    resolve: async (_root, args, ctx) => {
      await deleteWebhook(ctx.prisma, args.id.id, ctx.viewer);
      return encodeGlobalID("WebhookEndpoint", args.id.id);
    },
  }),
  rotateWebhookSecret: t.field({
    type: WebhookWithSecretRef,
    authScopes: admin,
    description: "Replaces the signing secret at once; the new one is shown this once.",
    args: { id: endpointId(t) },
    resolve: (_root, args, ctx) =>
      rotateWebhookSecret(ctx.prisma, ctx.secrets, args.id.id, ctx.viewer),
  }),
  sendTestWebhook: t.field({
    type: WebhookTestResultRef,
    authScopes: admin,
    description:
      "Sends a WEBHOOK_TEST event now, outside the feed's order, signed like every delivery.",
    args: { id: endpointId(t) },
    resolve: (_root, args, ctx) =>
      sendTestWebhook(ctx.prisma, ctx.webhooks, args.id.id, ctx.viewer),
  }),
}));
