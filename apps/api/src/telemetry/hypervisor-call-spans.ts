// One span per hypervisor call attempt, built from the call log entries hyper-http already writes
// (method, redacted path, status, attempt, duration), so the one door needs no tracing library.
import type { HyperLogger } from "@hyperlens/hyper-http";
import { type Context, SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import { CONNECTION_ID, CORRELATION_ID } from "./attributes.ts";

const CALL = "hypervisor call";
const REFUSED = "hypervisor call refused";

/** Where the calls go: the connection's base address. */
export interface CallTarget {
  baseUrl: string;
}

/**
 * Wraps a call logger so each call it logs also becomes a client span under `parent` (the sync's
 * span). The entry still reaches `logger` unchanged. It takes successful calls (debug) whatever
 * `logger` keeps: every call needs its span.
 */
export function traceHypervisorCalls(
  logger: HyperLogger,
  tracer: Tracer,
  parent: Context,
  target: CallTarget,
): HyperLogger {
  const server = serverOf(target.baseUrl);
  const record = (entry: Record<string, unknown>) => {
    if (entry.msg === CALL || entry.msg === REFUSED) recordCall(tracer, parent, server, entry);
  };
  return {
    debug(entry) {
      record(entry);
      logger.debug?.(entry);
    },
    info(entry) {
      record(entry);
      logger.info(entry);
    },
    warn(entry) {
      record(entry);
      logger.warn(entry);
    },
  };
}

function recordCall(
  tracer: Tracer,
  parent: Context,
  server: Record<string, string | number>,
  entry: Record<string, unknown>,
) {
  const method = text(entry.method) ?? "_OTHER";
  const status = typeof entry.status === "number" ? entry.status : undefined;
  const attempt = typeof entry.attempt === "number" ? entry.attempt : 1;
  const durationMs = typeof entry.durationMs === "number" ? entry.durationMs : 0;
  const errorType =
    entry.msg === REFUSED
      ? "refused"
      : (text(entry.errorClass) ??
        (status !== undefined && status >= 400 ? String(status) : undefined));
  // TRAP: docs/behaviour.md §1 — the path is hyper-http's redacted one; a raw query could carry a ticket.
  const [path = "", query] = (text(entry.path) ?? "").split("?", 2);
  const endedAt = Date.now();
  const span = tracer.startSpan(
    method,
    {
      kind: SpanKind.CLIENT,
      startTime: endedAt - durationMs,
      attributes: {
        ...server,
        "http.request.method": method,
        "url.path": path,
        ...(query ? { "url.query": query } : {}),
        ...(status !== undefined ? { "http.response.status_code": status } : {}),
        ...(attempt > 1 ? { "http.request.resend_count": attempt - 1 } : {}),
        "hyperlens.hypervisor.attempt": attempt,
        ...(errorType ? { "error.type": errorType } : {}),
        ...optional("hyperlens.source", text(entry.source)),
        ...optional(CONNECTION_ID, text(entry.connectionId)),
        ...optional(CORRELATION_ID, text(entry.correlationId)),
      },
    },
    parent,
  );
  if (errorType) span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
  span.end(endedAt);
}

function serverOf(baseUrl: string): Record<string, string | number> {
  try {
    const url = new URL(baseUrl);
    return {
      "server.address": url.hostname,
      "server.port": url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80,
    };
  } catch {
    return {};
  }
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

const optional = (name: string, value: string | undefined) => (value ? { [name]: value } : {});
