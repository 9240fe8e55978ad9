// The standard OTEL_* variables, with the OpenTelemetry specification's meaning, checked at boot
// with the rest of the configuration. Tracing is off unless an exporter or an endpoint is named.
import { z } from "zod";
import { parseKeyValueList } from "./key-value-list.ts";

const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

/** A sampler named by OTEL_TRACES_SAMPLER. */
export type SamplerName = (typeof SAMPLERS)[number];

const EXPORTERS = ["otlp", "console", "none"] as const;

/** Where spans go: OTLP over HTTP (JSON) to a collector, or stdout. */
export type ExporterName = Exclude<(typeof EXPORTERS)[number], "none">;

// Specification: enum values are case-insensitive.
const lowerCase = (value: unknown) =>
  typeof value === "string" ? value.trim().toLowerCase() : value;

function exporterList(text: string): string[] {
  return text
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
}

const isExporterList = (text: string) => {
  const names = exporterList(text);
  const isKnown = names.every((name) => (EXPORTERS as readonly string[]).includes(name));
  return isKnown && (!names.includes("none") || names.length === 1);
};

const collectorUrl = z.string().refine((value) => {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, "must be an http:// or https:// URL");

/** The zod shape of the OTEL_* variables, merged into the configuration schema. */
export const TRACING_VARIABLES = {
  OTEL_SDK_DISABLED: z
    .preprocess(lowerCase, z.enum(["true", "false"], { error: "must be true or false" }))
    .optional(),
  OTEL_TRACES_EXPORTER: z
    .string()
    .refine(isExporterList, "must be otlp, console, otlp,console or none")
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl.optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collectorUrl.optional(),
  // TRAP: docs/behaviour.md §1 — these headers usually carry a collector's API key: the message must not echo it.
  OTEL_EXPORTER_OTLP_HEADERS: z
    .string()
    .refine(
      (value) => parseKeyValueList(value) !== null,
      "must be name=value pairs separated by commas (value not shown)",
    )
    .optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
  OTEL_RESOURCE_ATTRIBUTES: z
    .string()
    .refine(
      (value) => parseKeyValueList(value) !== null,
      "must be name=value pairs separated by commas, values percent-encoded",
    )
    .optional(),
  OTEL_TRACES_SAMPLER: z
    .preprocess(lowerCase, z.enum(SAMPLERS, { error: `must be one of ${SAMPLERS.join(", ")}` }))
    .optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce
    .number({ error: "must be a number between 0 and 1" })
    .min(0, "must be between 0 and 1")
    .max(1, "must be between 0 and 1")
    .optional(),
};

type TracingValues = {
  [K in keyof typeof TRACING_VARIABLES]?: z.output<(typeof TRACING_VARIABLES)[K]>;
};

/** How tracing runs when it is on. */
export interface TracingConfig {
  exporters: ExporterName[];
  /** Where OTLP spans are posted (the full URL, ending in /v1/traces unless given per signal). */
  otlpTracesUrl: string;
  /** Extra headers for the collector (e.g. an API key); never logged. */
  otlpHeaders: Record<string, string>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: SamplerName;
  /** The ratio of the `traceidratio` samplers. */
  samplerRatio: number;
}

const DEFAULT_OTLP_ENDPOINT = "http://localhost:4318";
const DEFAULT_SERVICE_NAME = "hyperlens";

/**
 * Tracing settings from validated OTEL_* values, or null when tracing is off: disabled by
 * OTEL_SDK_DISABLED, exporter `none`, or no exporter and no endpoint named at all.
 */
export function tracingConfigFrom(values: TracingValues): TracingConfig | null {
  if (values.OTEL_SDK_DISABLED === "true") return null;
  const endpoint = values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? values.OTEL_EXPORTER_OTLP_ENDPOINT;
  const named = values.OTEL_TRACES_EXPORTER
    ? exporterList(values.OTEL_TRACES_EXPORTER)
    : endpoint
      ? ["otlp"]
      : [];
  const exporters = [...new Set(named)].filter((name): name is ExporterName => name !== "none");
  if (exporters.length === 0) return null;
  const resourceAttributes = parseKeyValueList(values.OTEL_RESOURCE_ATTRIBUTES ?? "") ?? {};
  return {
    exporters,
    otlpTracesUrl:
      values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
      signalUrl(values.OTEL_EXPORTER_OTLP_ENDPOINT ?? DEFAULT_OTLP_ENDPOINT),
    otlpHeaders: parseKeyValueList(values.OTEL_EXPORTER_OTLP_HEADERS ?? "") ?? {},
    serviceName:
      values.OTEL_SERVICE_NAME || resourceAttributes["service.name"] || DEFAULT_SERVICE_NAME,
    resourceAttributes,
    sampler: values.OTEL_TRACES_SAMPLER ?? "parentbased_always_on",
    samplerRatio: values.OTEL_TRACES_SAMPLER_ARG ?? 1,
  };
}

// Specification: the signal-less endpoint is a base URL; the traces path is appended to it.
function signalUrl(base: string): string {
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}
