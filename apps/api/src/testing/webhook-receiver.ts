// A webhook receiver for tests and the bench: a real HTTP server that checks every request's
// signature with the algorithm docs/api.md documents (the Node snippet there is this function),
// de-duplicates by event id and records what it accepted, in arrival order.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";

/** docs/api.md "Verifying a delivery", Node: true when `body` was signed with `secret` lately. */
export function verifyHyperlensSignature(
  secret: string,
  header: string,
  body: string,
  toleranceSeconds = 300,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2)));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest();
  const given = Buffer.from(String(parts.v1 ?? ""), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface ReceivedEvent {
  id: string;
  sequence: number | null;
  type: string;
  body: Record<string, unknown>;
}

export interface WebhookReceiver {
  url: string;
  /** Every request, verified or not. */
  requests: number;
  /** Requests whose signature or headers did not verify (answered 400). */
  badSignatures: number;
  /** Events accepted (2xx), each id once, in the order first accepted. */
  events: ReceivedEvent[];
  /** Events accepted again after a first acceptance (at-least-once). */
  duplicates: number;
  /** Resolves once `count` distinct events were accepted. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Listens on 127.0.0.1. `secret()` is read per request (a test may rotate it); `answer(n)` is the
 * status for the n-th request (1-based), 200 by default — a promise of it answers as slowly.
 */
export async function startWebhookReceiver(
  secret: () => string,
  answer: (request: number) => number | Promise<number> = () => 200,
): Promise<WebhookReceiver> {
  const seen = new Set<string>();
  const waiters: (() => boolean)[] = [];
  const receiver: WebhookReceiver = {
    url: "",
    requests: 0,
    badSignatures: 0,
    events: [],
    duplicates: 0,
    waitFor: (count, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`saw ${receiver.events.length} of ${count} events`)),
          timeoutMs,
        );
        const check = () => {
          if (receiver.events.length < count) return false;
          clearTimeout(timer);
          resolve();
          return true;
        };
        if (!check()) waiters.push(check);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    receiver.requests++;
    const header = String(request.headers["hyperlens-signature"] ?? "");
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (
      !verifyHyperlensSignature(secret(), header, body) ||
      request.headers["hyperlens-event-id"] !== parsed.id ||
      request.headers["hyperlens-event-type"] !== parsed.type
    ) {
      receiver.badSignatures++;
      response.writeHead(400).end();
      return;
    }
    const status = await answer(receiver.requests);
    if (status >= 200 && status < 300) {
      const id = String(parsed.id);
      if (seen.has(id)) receiver.duplicates++;
      else {
        seen.add(id);
        receiver.events.push({
          id,
          sequence: parsed.sequence as number | null,
          type: String(parsed.type),
          body: parsed,
        });
        for (const waiter of waiters.splice(0)) {
          if (!waiter()) waiters.push(waiter);
        }
      }
    }
    response.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  receiver.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks`;
  return receiver;
}
