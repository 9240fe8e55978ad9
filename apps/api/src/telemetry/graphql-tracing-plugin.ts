// One span per GraphQL operation executed or subscribed: its type, name and first root field.
// Never the document or the variables — a sign-in or a connection's secret travels in them.
import { type Span, SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import { type DocumentNode, type ExecutionResult, getOperationAST, Kind } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Tracing } from "./tracing.ts";

/**
 * A Yoga plugin tracing each operation with the app's current tracer; does nothing while
 * `tracingOf()` is undefined (tracing off).
 */
export function useGraphqlTracing(tracingOf: () => Tracing | undefined): Plugin {
  return {
    onExecute: ({ args }) => {
      const tracer = tracingOf()?.tracer;
      if (!tracer) return;
      const span = startOperationSpan(tracer, args.document, args.operationName, args.contextValue);
      return { onExecuteDone: ({ result }) => endOperationSpan(span, result) };
    },
    onSubscribe: ({ args }) => {
      const tracer = tracingOf()?.tracer;
      if (!tracer) return;
      const span = startOperationSpan(tracer, args.document, args.operationName, args.contextValue);
      return {
        onSubscribeResult: ({ result }) => {
          if (!(Symbol.asyncIterator in result)) {
            endOperationSpan(span, result);
            return;
          }
          return { onEnd: () => endOperationSpan(span, {}) };
        },
        onSubscribeError: () => endOperationSpan(span, { errors: [] }, true),
      };
    },
  };
}

function startOperationSpan(
  tracer: Tracer,
  document: DocumentNode,
  operationName: string | null | undefined,
  contextValue: unknown,
): Span {
  const operation = getOperationAST(document, operationName);
  const type = operation?.operation ?? "unknown";
  const name = operation?.name?.value;
  const first = operation?.selectionSet.selections[0];
  const requestId = (contextValue as { requestId?: unknown } | undefined)?.requestId;
  return tracer.startSpan(name ? `${type} ${name}` : type, {
    kind: SpanKind.SERVER,
    attributes: {
      "graphql.operation.type": type,
      ...(name ? { "graphql.operation.name": name } : {}),
      ...(first?.kind === Kind.FIELD ? { "hyperlens.graphql.root_field": first.name.value } : {}),
      ...(typeof requestId === "string" ? { "hyperlens.request_id": requestId } : {}),
    },
  });
}

function endOperationSpan(span: Span, result: unknown, hasFailed = false) {
  const errors = (result as ExecutionResult).errors ?? [];
  if (hasFailed || errors.length > 0) {
    // Codes, not messages: a message may quote what the client sent.
    const codes = errors.map((error) => String(error.extensions?.code ?? "UNKNOWN"));
    span.setAttribute("hyperlens.graphql.error_codes", [...new Set(codes)]);
    span.setStatus({ code: SpanStatusCode.ERROR, message: codes[0] ?? "error" });
  }
  span.end();
}
