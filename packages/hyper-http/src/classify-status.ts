import type { ErrorClass } from "./errors.ts";

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
  // TRAP: SPEC §2 — 4xx are never retried: a bad password retried could lock the account.
  if (status >= 400 && status < 500) return { errorClass: "malformed", isTransient: false };
  return { errorClass: "transient", isTransient: true };
}

const MAX_SERVER_MESSAGE = 300;

/**
 * Extracts the server's own error text: a JSON `message` (Proxmox since 2025, Director CloudAPI),
 * vSphere's `messages[0].default_message`, an XML `message="…"` attribute (Director legacy), else
 * the status line's reason phrase when it says more than the standard wording.
 */
export function extractServerMessage(bodyText: string, statusText: string): string | undefined {
  const fromBody = messageFromBody(bodyText);
  const text = fromBody ?? (isInformativeReason(statusText) ? statusText : undefined);
  if (text === undefined) return undefined;
  const trimmed = text.replace(/\s+/g, " ").trim();
  if (trimmed === "") return undefined;
  return trimmed.length > MAX_SERVER_MESSAGE ? `${trimmed.slice(0, MAX_SERVER_MESSAGE)}…` : trimmed;
}

function messageFromBody(bodyText: string): string | undefined {
  const body = bodyText.trim();
  if (body.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (typeof parsed === "object" && parsed !== null) {
        const message = (parsed as { message?: unknown }).message;
        if (typeof message === "string" && message.trim() !== "") return message;
        const messages = (parsed as { messages?: unknown }).messages;
        if (Array.isArray(messages)) {
          const first: unknown = messages[0];
          const text =
            typeof first === "object" && first !== null
              ? (first as { default_message?: unknown }).default_message
              : undefined;
          if (typeof text === "string") return text;
        }
      }
    } catch {
      return undefined;
    }
    return undefined;
  }
  if (body.startsWith("<")) {
    const match = /<(?:\w+:)?Error\b[^>]*\smessage="([^"]*)"/.exec(body);
    if (match?.[1]) return decodeXmlEntities(match[1]);
  }
  return undefined;
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
