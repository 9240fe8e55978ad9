// A logged-in session with a connection's hypervisor, through its kind's driver: the one way Test
// and Sync reach a hypervisor, with the connection's logger, metrics, tracing and address policy.
import type { Connection } from "@hyperlens/db";
import type { HyperLogger } from "@hyperlens/hyper-http";
import type { AppServices } from "../context.ts";
import { NotFoundError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { hyperMetricsOf } from "../metrics/metrics.ts";
import { driverFor } from "../sources/registry.ts";
import { traceHypervisorCalls } from "../telemetry/hypervisor-call-spans.ts";
import type { SyncSpan } from "../telemetry/sync-span.ts";

/** Opens a session; a sync passes its span, so each hypervisor call is traced under it. */
export function openHypervisorSession(
  services: AppServices,
  connection: Connection,
  secret: string,
  correlationId: string,
  syncSpan?: SyncSpan,
) {
  const driver = driverFor(connection.kind);
  if (!driver)
    throw new NotFoundError(`Connections of kind ${connection.kind} cannot be synced yet.`);
  const logger = callLogger(services.logger.child({ connectionId: connection.id, correlationId }));
  const tracer = services.tracing?.tracer;
  return driver.open(connection, secret, {
    logger:
      tracer && syncSpan
        ? traceHypervisorCalls(logger, tracer, syncSpan.context, connection)
        : logger,
    correlationId,
    metrics: hyperMetricsOf(services.metrics),
    allowLoopbackTargets: services.targetPolicy.allowLoopbackTargets,
  });
}

/**
 * The log of a session's hypervisor calls: failed calls always; successful ones only when the
 * server logs at debug, so at info the client does not even build their lines (docs/operations.md,
 * "Log levels").
 */
function callLogger(logger: Logger): HyperLogger {
  return {
    info: (entry) => logger.info(entry),
    warn: (entry) => logger.warn(entry),
    ...(logger.isLevelEnabled("debug") ? { debug: (entry) => logger.debug(entry) } : {}),
  };
}
