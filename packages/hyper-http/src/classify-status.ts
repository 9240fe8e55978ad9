import type { ErrorClass, SourceName } from "./errors.ts";

/** How the door treats an HTTP status that is not a success. */
export interface StatusVerdict {
  errorClass: ErrorClass;
  /** Retry with backoff (5xx and Proxmox's 595 "proxied node unreachable"); never for 4xx. */
  isTransient: boolean;
}

/** Classifies a non-2xx HTTP status. */
export function classifyStatus(status: number): StatusVerdict {
  if (status === 401) return { errorClass: "auth", isTransient: false };
  if (status === 403) return { errorClass: "permission", isTransient: false };
  // 501 is Proxmox's "Method 'GET /…' not implemented": the path does not exist on this version.
  if (status === 404 || status === 501) return { errorClass: "not_found", isTransient: false };
  if (status >= 300 && status < 400) return { errorClass: "config", isTransient: false };
  // TRAP: docs/behaviour.md §2 — 4xx are never retried: a bad password retried could lock the account.
  if (status >= 400 && status < 500) return { errorClass: "malformed", isTransient: false };
  return { errorClass: "transient", isTransient: true };
}

const MAX_SERVER_MESSAGE = 300;

/** What {@link extractServerMessage} reads of an error answer. */
export interface ErrorAnswer {
  body: string;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Extracts the server's own error text, only from an answer in the error shape of the source the
 * client talks to: Proxmox (`Server: pve-api-daemon`, or a `{"data":…}` body: its JSON `message`,
 * else the status line's reason phrase), vCenter (`error_type` with `messages[0].default_message`),
 * Cloud Director (CloudAPI `minorErrorCode` + `message`, or an XML `<Error majorErrorCode=…
 * message=…>`). Anything else gives undefined, so the error names the class and the status only.
 */
export function extractServerMessage(answer: ErrorAnswer, source: SourceName): string | undefined {
  // TRAP: outbound policy (docs/operations.md) — echoing any body would let Test read the
  // answers of internal services that are not hypervisors.
  const text = RECOGNISERS[source](answer);
  if (text === undefined) return undefined;
  const trimmed = text.replace(/\s+/g, " ").trim();
  if (trimmed === "") return undefined;
  return trimmed.length > MAX_SERVER_MESSAGE ? `${trimmed.slice(0, MAX_SERVER_MESSAGE)}…` : trimmed;
}

const RECOGNISERS: Record<SourceName, (answer: ErrorAnswer) => string | undefined> = {
  Proxmox: proxmoxMessage,
  vCenter: (answer) => vsphereMessage(jsonObject(answer.body)),
  "Cloud Director": (answer) => directorMessage(answer.body),
};

// pveproxy puts its text in the reason phrase, and in the JSON `message` since 2025; auth failures
// and proxy errors (595) have no body, only the daemon's Server header.
function proxmoxMessage(answer: ErrorAnswer): string | undefined {
  const body = jsonObject(answer.body);
  const server = String(answer.headers.server ?? "");
  const isPveShaped = body !== undefined && "data" in body;
  if (!/^pve-api-daemon\b/i.test(server) && !isPveShaped) return undefined;
  const message = body?.message;
  if (typeof message === "string" && message.trim() !== "") return message;
  return isInformativeReason(answer.statusText) ? answer.statusText : undefined;
}

function vsphereMessage(body: Record<string, unknown> | undefined): string | undefined {
  if (typeof body?.error_type !== "string" || !Array.isArray(body.messages)) return undefined;
  const first: unknown = body.messages[0];
  const text =
    typeof first === "object" && first !== null
      ? (first as { default_message?: unknown }).default_message
      : undefined;
  return typeof text === "string" ? text : undefined;
}

function directorMessage(bodyText: string): string | undefined {
  const body = jsonObject(bodyText);
  if (body !== undefined) {
    return typeof body.minorErrorCode === "string" && typeof body.message === "string"
      ? body.message
      : undefined;
  }
  const element = /<(?:\w+:)?Error\b[^>]*>/.exec(bodyText.trim())?.[0];
  if (!element || !/\smajorErrorCode="/.test(element)) return undefined;
  const match = /\smessage="([^"]*)"/.exec(element);
  return match?.[1] ? decodeXmlEntities(match[1]) : undefined;
}

function jsonObject(bodyText: string): Record<string, unknown> | undefined {
  const body = bodyText.trim();
  if (!body.startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const STANDARD_REASONS = new Set([
  "",
  "ok",
  "bad request",
  "unauthorized",
  "forbidden",
  "not found",
  "not implemented",
  "internal server error",
  "bad gateway",
  "service unavailable",
  "gateway timeout",
  "unknown",
]);

function isInformativeReason(statusText: string): boolean {
  return !STANDARD_REASONS.has(statusText.trim().toLowerCase());
}

function decodeXmlEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
