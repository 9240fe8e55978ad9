// Webhook signing (docs/api.md "Webhooks"): HMAC-SHA256 with the endpoint's secret over
// `${timestamp}.${body}`, sent as `Hyperlens-Signature: t=<unix seconds>,v1=<hex>`. The timestamp
// is signed so a receiver can refuse a captured request replayed later.
import { createHmac, randomBytes } from "node:crypto";

/** The header names a delivery carries. */
export const SIGNATURE_HEADER = "hyperlens-signature";
export const EVENT_ID_HEADER = "hyperlens-event-id";
export const EVENT_TYPE_HEADER = "hyperlens-event-type";

/** A new signing secret: `whsec_` and 32 random bytes. The whole string is the HMAC key. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** The `Hyperlens-Signature` value for `body` sent at `timestampSeconds`. */
export function signatureHeader(secret: string, body: string, timestampSeconds: number): string {
  const digest = createHmac("sha256", secret).update(`${timestampSeconds}.${body}`).digest("hex");
  return `t=${timestampSeconds},v1=${digest}`;
}

/** The associated data a webhook secret is sealed with: it opens for this endpoint only. */
export function webhookSecretContext(endpointId: string): string {
  return `webhook:${endpointId}`;
}
