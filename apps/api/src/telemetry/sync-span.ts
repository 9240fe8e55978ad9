// One span per sync: connection, run, correlation id, outcome and counts. Its context is the
// parent of the sync's hypervisor-call spans.
import type { ConnectionKind } from "@hyperlens/shared";
import type { SyncResult } from "@hyperlens/sync";
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { CONNECTION_ID, CONNECTION_KIND, CORRELATION_ID } from "./attributes.ts";

/** What a sync is, as known when it starts. */
export interface SyncSpanStart {
  connectionId: string;
  kind: ConnectionKind;
  trigger: string;
  isDryRun: boolean;
  correlationId: string;
}

/** A sync's span while it runs. */
export interface SyncSpan {
  /** The context to start the sync's child spans in. */
  readonly context: Context;
  /** Records the run id once the run row exists. */
  setRunId(syncRunId: string): void;
  /** Ends the span with the sync's outcome and counts. */
  finish(result: SyncResult): void;
  /** Ends the span of a sync that threw instead of recording an outcome. */
  fail(error: unknown): void;
}

/** Starts the span of one sync, as the root of its own trace (it outlives any request). */
export function startSyncSpan(tracer: Tracer, start: SyncSpanStart): SyncSpan {
  const span: Span = tracer.startSpan(
    "hyperlens.sync",
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [CONNECTION_ID]: start.connectionId,
        [CONNECTION_KIND]: start.kind,
        [CORRELATION_ID]: start.correlationId,
        "hyperlens.sync.trigger": start.trigger,
        "hyperlens.sync.dry_run": start.isDryRun,
      },
    },
    ROOT_CONTEXT,
  );
  return {
    context: trace.setSpan(ROOT_CONTEXT, span),
    setRunId: (syncRunId) => span.setAttribute("hyperlens.sync.run_id", syncRunId),
    finish(result) {
      span.setAttribute("hyperlens.sync.run_id", result.syncRunId);
      span.setAttribute("hyperlens.sync.outcome", result.outcome);
      span.setAttribute("hyperlens.sync.guard_fired", result.guardFired);
      for (const [name, value] of Object.entries(result.counts)) {
        span.setAttribute(`hyperlens.sync.counts.${name}`, value);
      }
      if (result.outcome === "FAILED") {
        span.setAttribute("error.type", result.errorClass ?? "internal");
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.message });
      }
      span.end();
    },
    fail(error) {
      // The name only: an unexpected error's message is not known to be free of secrets.
      const type = error instanceof Error ? error.name : "unknown";
      span.setAttribute("error.type", type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
      span.end();
    },
  };
}
