// Prometheus metrics of one app instance. Each instance owns its registry, so several apps in one
// process (tests) never share or double-register a metric.
import type { CallLabels, HyperMetrics, SourceName } from "@hyperlens/hyper-http";
import type { ConnectionKind } from "@hyperlens/shared";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** The metrics an app records, and the registry `/metrics` renders. */
export interface AppMetrics {
  registry: Registry;
  /** Seconds from a sync's start to its recorded outcome, by source and outcome. */
  syncDuration: Histogram<"source" | "outcome">;
  /** Finished syncs by source, outcome and trigger. */
  syncRuns: Counter<"source" | "outcome" | "trigger">;
  /** Syncs whose removal guard held removals back (docs/behaviour.md §3), by source. */
  guardActivations: Counter<"source">;
  /** Hypervisor calls (one per attempt) by source, method and status class. */
  hypervisorCalls: Counter<"source" | "method" | "status_class">;
  hypervisorCallDuration: Histogram<"source" | "status_class">;
  /** Failed sign-ins and requests with a credential that is not valid. */
  authFailures: Counter<"reason">;
  /** Sync requests that found the connection's lease held (here or by another replica). */
  leaseContention: Counter<"trigger" | "held_by">;
  /** GraphQL operations by type, first root field and whether they returned errors. */
  graphqlDuration: Histogram<"operation_type" | "root_field" | "has_errors">;
}

/** Creates the metrics of one app instance on a registry of its own. */
export function createMetrics(options: { withProcessMetrics?: boolean } = {}): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.withProcessMetrics ?? true) collectDefaultMetrics({ register: registry });
  return {
    registry,
    syncDuration: new Histogram({
      name: "hyperlens_sync_duration_seconds",
      help: "Duration of syncs from start to recorded outcome.",
      labelNames: ["source", "outcome"],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 3600],
      registers,
    }),
    syncRuns: new Counter({
      name: "hyperlens_sync_runs_total",
      help: "Finished syncs by source, outcome and trigger.",
      labelNames: ["source", "outcome", "trigger"],
      registers,
    }),
    guardActivations: new Counter({
      name: "hyperlens_sync_guard_activations_total",
      help: "Syncs in which the removal guard held removals back.",
      labelNames: ["source"],
      registers,
    }),
    hypervisorCalls: new Counter({
      name: "hyperlens_hypervisor_requests_total",
      help: "Hypervisor HTTP attempts by status class (2xx, 4xx, 5xx, or the error class when no answer came).",
      labelNames: ["source", "method", "status_class"],
      registers,
    }),
    hypervisorCallDuration: new Histogram({
      name: "hyperlens_hypervisor_request_duration_seconds",
      help: "Duration of hypervisor HTTP attempts.",
      labelNames: ["source", "status_class"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    authFailures: new Counter({
      name: "hyperlens_auth_failures_total",
      help: "Failed sign-ins and requests presenting an invalid or expired token or session.",
      labelNames: ["reason"],
      registers,
    }),
    leaseContention: new Counter({
      name: "hyperlens_sync_lease_contention_total",
      help: "Sync requests that found the connection already being synced, by this server or another.",
      labelNames: ["trigger", "held_by"],
      registers,
    }),
    graphqlDuration: new Histogram({
      name: "hyperlens_graphql_operation_duration_seconds",
      help: "Duration of GraphQL operation execution.",
      labelNames: ["operation_type", "root_field", "has_errors"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    }),
  };
}

/** "2xx"/"4xx"/"5xx" for an HTTP status; the error class (unreachable, timeout, …) otherwise. */
export function statusClass(outcome: string): string {
  return /^[1-5]\d\d$/.test(outcome) ? `${outcome[0]}xx` : outcome;
}

/** hyper-http names a source for people; every metric labels it with its connection kind. */
const SOURCE_LABEL: Record<SourceName, ConnectionKind> = {
  Proxmox: "PROXMOX",
  "Cloud Director": "VCD",
  vCenter: "VCENTER",
};

/** The hook hyper-http calls per attempt, recording into this app's registry. */
export function hyperMetricsOf(metrics: AppMetrics): HyperMetrics {
  // The connection id stays off the labels: one series per connection would grow without bound.
  // Each series' labels and child are made once per session, not once per call.
  const calls = new Map<string, ReturnType<AppMetrics["hypervisorCalls"]["labels"]>>();
  const durations = new Map<string, ReturnType<AppMetrics["hypervisorCallDuration"]["labels"]>>();
  const series = (labels: CallLabels) => ({
    source: SOURCE_LABEL[labels.source],
    status_class: statusClass(labels.outcome),
  });
  return {
    count: (_name, labels) => {
      const key = `${labels.source}|${labels.method}|${labels.outcome}`;
      let child = calls.get(key);
      if (!child) {
        child = metrics.hypervisorCalls.labels({ ...series(labels), method: labels.method });
        calls.set(key, child);
      }
      child.inc();
    },
    observe: (_name, seconds, labels) => {
      const key = `${labels.source}|${labels.outcome}`;
      let child = durations.get(key);
      if (!child) {
        child = metrics.hypervisorCallDuration.labels(series(labels));
        durations.set(key, child);
      }
      child.observe(seconds);
    },
  };
}
