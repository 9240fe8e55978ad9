// Tracing of one app instance: the tracer the GraphQL plugin and the sync use, and its shutdown.
// The OpenTelemetry SDK is imported only when tracing is on, so a server without OTEL_* settings
// neither loads it nor pays for it at start-up.
import type { Tracer } from "@opentelemetry/api";
import type { Logger } from "../logger.ts";
import type { TracingConfig } from "./tracing-config.ts";

/** A running tracer provider. */
export interface Tracing {
  readonly tracer: Tracer;
  /** Sends every finished span now. */
  flush(): Promise<void>;
  /** Sends what is left and stops; later spans are dropped. */
  shutdown(): Promise<void>;
}

/** Starts tracing as configured; undefined (and no SDK loaded) when tracing is off. */
export async function startTracing(
  config: TracingConfig | null,
  logger: Logger,
): Promise<Tracing | undefined> {
  if (!config) return undefined;
  const { createTracing } = await import("./tracer-provider.ts");
  return createTracing(config, { logger });
}
