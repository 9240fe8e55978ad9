// What the Webhooks page says about an endpoint and each delivery attempt, and in which tone
// (docs/behaviour.md §9.40, §14.23–§14.27).
import type { Tone } from "../ui/tone.ts";
import type { WebhookDelivery, WebhookEndpoint } from "./webhook-documents.ts";

/**
 * Where an endpoint stands: delivering, retrying the next event after failures, turned off by an
 * administrator, or turned off by the server after failing for days (§14.26).
 */
export type EndpointState = "DELIVERING" | "RETRYING" | "DISABLED" | "DISABLED_BY_SERVER";

type StateFields = Pick<WebhookEndpoint, "isEnabled" | "disabledReason" | "failedAttempts">;

/** The state of an endpoint; a server-disabled one is never shown as merely "disabled". */
export function endpointState(endpoint: StateFields): EndpointState {
  if (!endpoint.isEnabled) return endpoint.disabledReason ? "DISABLED_BY_SERVER" : "DISABLED";
  return endpoint.failedAttempts > 0 ? "RETRYING" : "DELIVERING";
}

const STATE_TONE: Record<EndpointState, Tone> = {
  DELIVERING: "ok",
  RETRYING: "warn",
  DISABLED: "neutral",
  DISABLED_BY_SERVER: "danger",
};

/** The tone of an endpoint's state. */
export function endpointTone(endpoint: StateFields): Tone {
  return STATE_TONE[endpointState(endpoint)];
}

/** The tone of one attempt: only a delivered one is ok; a given-up event is danger. */
export function deliveryTone(outcome: string): Tone {
  if (outcome === "DELIVERED") return "ok";
  if (outcome === "FAILED") return "warn";
  if (outcome === "GAVE_UP") return "danger";
  return "neutral";
}

/** The attempts newest first (ties: the later event first), whatever order they came in. */
export function newestFirst(deliveries: readonly WebhookDelivery[]): WebhookDelivery[] {
  return [...deliveries].sort(
    (a, b) =>
      Date.parse(b.at) - Date.parse(a.at) ||
      Number(b.eventSequence ?? 0) - Number(a.eventSequence ?? 0),
  );
}
