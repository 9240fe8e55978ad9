// Sends one signed event to one endpoint (docs/api.md "Webhooks"): through the outbound address
// policy, with a timeout, redirects not followed, keep-alive connections reused.
import {
  createGuardedAgent,
  findTargetRefusal,
  type TargetAddressPolicy,
} from "@hyperlens/hyper-http";
import { checkWebhookUrlForm } from "./endpoint-url.ts";
import { type FeedEvent, webhookBody } from "./payload.ts";
import {
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_HEADER,
  signatureHeader,
} from "./signature.ts";

/** How one attempt went. */
export interface AttemptResult {
  isDelivered: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** Why it failed, for the delivery log; null when delivered. */
  error: string | null;
}

export interface WebhookSender {
  send(url: string, secret: string, event: FeedEvent): Promise<AttemptResult>;
  close(): Promise<void>;
}

const MAX_ERROR = 500;

/** A sender with its own connection pool; `timeoutMs` bounds connect, headers and body each. */
export function createWebhookSender(
  policy: TargetAddressPolicy,
  options: { timeoutMs: number },
): WebhookSender {
  const agent = createGuardedAgent(policy, { connectTimeoutMs: options.timeoutMs });
  return {
    async send(url, secret, event) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      // TRAP: docs/behaviour.md §14.21 — an http address saved while the lab opt-in was on is
      // not sent to once the server runs without it.
      const formProblem = checkWebhookUrlForm(url, policy);
      if (formProblem) return failed(null, 0, formProblem);
      const target = new URL(url);
      const body = webhookBody(event);
      try {
        const response = await agent.request({
          origin: target.origin,
          path: `${target.pathname}${target.search}`,
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "Hyperlens-Webhook",
            [SIGNATURE_HEADER]: signatureHeader(secret, body, Math.floor(Date.now() / 1000)),
            [EVENT_ID_HEADER]: event.id,
            [EVENT_TYPE_HEADER]: event.type,
          },
          body,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        // Read to the end so the connection goes back to the pool for the next event.
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        const status = response.statusCode;
        if (status >= 200 && status < 300)
          return { isDelivered: true, statusCode: status, latencyMs: elapsed(), error: null };
        // TRAP: docs/behaviour.md §14.23 — a redirect is not a delivery; following it would
        // send the event (and pass the policy check) somewhere the administrator did not set.
        return failed(status, elapsed(), `The receiver answered HTTP ${status}`);
      } catch (error) {
        return failed(null, elapsed(), describe(error, options.timeoutMs));
      }
    },
    close: () => agent.close(),
  };
}

function failed(statusCode: number | null, latencyMs: number, error: string): AttemptResult {
  return { isDelivered: false, statusCode, latencyMs, error: error.slice(0, MAX_ERROR) };
}

function describe(error: unknown, timeoutMs: number): string {
  const refusal = findTargetRefusal(error);
  if (refusal) return refusal.message;
  const named = error as { name?: string; code?: string; message?: string };
  if (named.name === "TimeoutError" || /Timeout/.test(named.code ?? ""))
    return `No answer within ${timeoutMs} ms`;
  return [named.code, named.message].filter(Boolean).join(": ") || String(error);
}
