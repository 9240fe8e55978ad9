// The OpenTelemetry SDK side of tracing: resource, sampler, exporters. Loaded on demand by
// startTracing; nothing else imports the SDK.
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-base";
import type { Logger } from "../logger.ts";
import { reportExportFailures } from "./export-failures.ts";
import type { Tracing } from "./tracing.ts";
import type { ExporterName, SamplerName, TracingConfig } from "./tracing-config.ts";

/** Options of {@link createTracing}. */
export interface CreateTracingOptions {
  logger?: Logger;
  /** Exporters to use instead of the configured ones (tests: an in-memory exporter). */
  exporters?: SpanExporter[];
}

const TRACER_NAME = "hyperlens";

/** Builds the tracer provider of one app instance from the tracing settings. */
export async function createTracing(
  config: TracingConfig,
  options: CreateTracingOptions = {},
): Promise<Tracing> {
  const processors: SpanProcessor[] = options.exporters
    ? options.exporters.map((exporter) => new BatchSpanProcessor(exporter))
    : await Promise.all(config.exporters.map((name) => processorFor(name, config, options.logger)));
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      ...config.resourceAttributes,
      "service.name": config.serviceName,
    }),
    sampler: samplerFor(config.sampler, config.samplerRatio),
    spanProcessors: processors,
  });
  return {
    tracer: provider.getTracer(TRACER_NAME),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

async function processorFor(
  name: ExporterName,
  config: TracingConfig,
  logger: Logger | undefined,
): Promise<SpanProcessor> {
  if (name === "console") return new SimpleSpanProcessor(new ConsoleSpanExporter());
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  const exporter = new OTLPTraceExporter({
    url: config.otlpTracesUrl,
    headers: config.otlpHeaders,
  });
  return new BatchSpanProcessor(
    logger ? reportExportFailures(exporter, logger, config.otlpTracesUrl) : exporter,
  );
}

function samplerFor(name: SamplerName, ratio: number): Sampler {
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return new TraceIdRatioBasedSampler(ratio);
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
