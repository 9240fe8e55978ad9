// Span export runs in the background, and the SDK reports its failures nowhere by default: say in
// the log when the collector stops taking spans, and when it takes them again.
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { Logger } from "../logger.ts";

type ExportCallback = Parameters<SpanExporter["export"]>[1];
type ExportResult = Parameters<ExportCallback>[0];

const SUCCESS = 0;

/** Wraps an exporter so the first failure of a streak is logged as a warning, and the recovery. */
export function reportExportFailures(
  exporter: SpanExporter,
  logger: Logger,
  collectorUrl: string,
): SpanExporter {
  // Only the address: a URL may carry user:password before the host.
  const collector = shownUrl(collectorUrl);
  let isFailing = false;
  return {
    export(spans, done) {
      exporter.export(spans, (result: ExportResult) => {
        if (result.code !== SUCCESS && !isFailing) {
          isFailing = true;
          logger.warn(
            { collector, spans: spans.length, reason: result.error?.message },
            "Could not send traces to the OpenTelemetry collector; spans are dropped until it answers",
          );
        } else if (result.code === SUCCESS && isFailing) {
          isFailing = false;
          logger.info({ collector }, "The OpenTelemetry collector takes traces again");
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
