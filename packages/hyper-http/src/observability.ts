import type { SourceName } from "./errors.ts";

/**
 * Where call log lines go. Structural so pino, console or a test array all fit. Objects only, never
 * pre-formatted strings, and never a credential.
 *
 * A failed or refused call is a `warn` line. A successful call is a `debug` line, and only when the
 * logger has `debug`: a logger without it (the app's at `info`) costs no line per call, not even
 * the building of one (docs/operations.md, "Log levels").
 */
export interface HyperLogger {
  debug?(entry: Record<string, unknown>): void;
  info(entry: Record<string, unknown>): void;
  warn(entry: Record<string, unknown>): void;
}

/** Labels attached to every call metric. */
export interface CallLabels {
  source: SourceName;
  connectionId: string;
  method: string;
  /** HTTP status as a string, or the error class when there was no answer. */
  outcome: string;
}

/**
 * Metric hooks, so hyper-http needs no metrics library. `count` is a counter
 * (`hyper_http_requests_total`, one per attempt); `observe` a histogram
 * (`hyper_http_request_duration_seconds`).
 */
export interface HyperMetrics {
  count(name: "hyper_http_requests_total", labels: CallLabels): void;
  observe(name: "hyper_http_request_duration_seconds", seconds: number, labels: CallLabels): void;
}

/** A logger that drops everything. */
export const silentLogger: HyperLogger = { info() {}, warn() {} };

/** Metrics hooks that record nothing. */
export const noMetrics: HyperMetrics = { count() {}, observe() {} };
