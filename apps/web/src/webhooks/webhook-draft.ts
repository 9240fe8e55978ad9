// The endpoint form's fields as typed, and the input the API is sent from them.
import type { SchemaType } from "../graphql/graphql.ts";
import type { WebhookEndpoint } from "./webhook-documents.ts";

/** An inventory event type an endpoint may be sent. */
export type InventoryEventType = SchemaType<"InventoryEventType">;

/** The endpoint form's fields; empty lists mean every event type, every connection. */
export interface WebhookDraft {
  url: string;
  description: string;
  eventTypes: InventoryEventType[];
  connectionIds: string[];
  isEnabled: boolean;
}

/** The form's fields for a new endpoint, or for editing one. */
export function draftOf(endpoint?: WebhookEndpoint): WebhookDraft {
  return {
    url: endpoint?.url ?? "",
    description: endpoint?.description ?? "",
    eventTypes: [...(endpoint?.eventTypes ?? [])],
    connectionIds: [...(endpoint?.connectionIds ?? [])],
    isEnabled: endpoint?.isEnabled ?? true,
  };
}

/** The input for create or update: trimmed text, and the lists as chosen. */
export function inputFromDraft(draft: WebhookDraft): SchemaType<"WebhookEndpointInput"> {
  return {
    url: draft.url.trim(),
    description: draft.description.trim(),
    eventTypes: draft.eventTypes,
    connectionIds: draft.connectionIds,
    isEnabled: draft.isEnabled,
  };
}

/** The list with the value added or taken out. */
export function toggled<T>(list: readonly T[], value: T, isOn: boolean): T[] {
  return isOn ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value);
}
