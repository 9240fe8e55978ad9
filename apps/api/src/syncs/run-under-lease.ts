// One sync of a connection by the replica that holds its lease: the heartbeat that keeps the lease
// (and stops the sync when it is lost), the engine run with its progress events, span and metrics,
// and the lease given back at the end.
import { randomUUID } from "node:crypto";
import type { Connection } from "@hyperlens/db";
import type { SyncProgressEvent, SyncTrigger } from "@hyperlens/shared";
import { runSync, type SyncResult } from "@hyperlens/sync";
import type { AppServices } from "../context.ts";
import { readConnectionSecret } from "../services/connections.ts";
import { openHypervisorSession } from "../services/hypervisor-session.ts";
import { startSyncSpan } from "../telemetry/sync-span.ts";
import { recordLeaseRun, releaseLease, renewLease } from "./lease.ts";
import { publishProgress } from "./progress-events.ts";

/** A sync that has been asked for: its run id once the run is recorded, and its end. */
export interface StartedSync {
  syncRunId: Promise<string>;
  done: Promise<SyncResult>;
  /** A light poll (docs/behaviour.md §8.7): a sync request waits for it, never joins it. */
  isLightPoll?: boolean;
}

/** Options of a sync request. */
export interface SyncOptions {
  trigger: SyncTrigger;
  dryRun?: boolean;
  /**
   * Checked on the connection as read once the lease is held: false gives the lease back without
   * syncing (the scheduler and `sync --all` pass "still due", so a replica whose view is stale
   * does not sync a connection another replica has just synced).
   */
  shouldRun?: (connection: Connection) => boolean;
  /** Run a light poll instead of a full sync (the scheduler, docs/behaviour.md §8.7). */
  lightPoll?: boolean;
}

/** The lease this replica holds, as the run needs it. */
export interface HeldLease {
  holder: string;
  leaseTtlMs: number;
  /** The clock runs are stamped with. */
  now: () => Date;
}

/** Keeps the lease alive while the sync runs; stops the sync when the lease is lost. */
export function startHeartbeat(
  services: AppServices,
  lease: HeldLease,
  connectionId: string,
  controller: AbortController,
): () => void {
  const { prisma, logger } = services;
  let lastRenewed = Date.now();
  const timer = setInterval(
    async () => {
      try {
        if (await renewLease(prisma, connectionId, lease.holder, lease.leaseTtlMs)) {
          lastRenewed = Date.now();
          return;
        }
        // TRAP: docs/behaviour.md §8 — a holder whose lease was taken over must stop, or two syncs of one
        // connection would run at once.
        logger.warn({ connectionId }, "Sync lease lost to another server; stopping this sync");
        controller.abort(new Error("Another server took over this connection's sync."));
      } catch (error) {
        logger.warn({ err: error, connectionId }, "Could not renew the sync lease");
        if (Date.now() - lastRenewed > lease.leaseTtlMs) {
          controller.abort(new Error("The sync lease could not be renewed."));
        }
      }
    },
    Math.max(200, Math.floor(lease.leaseTtlMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * What every run under a held lease shares: the heartbeat from the start, the run id once `run`
 * announces it (or once the run ends without one), and the lease given back at the end.
 */
export function whileLeaseHeld(
  services: AppServices,
  lease: HeldLease,
  connectionId: string,
  controller: AbortController,
  run: (announce: (syncRunId: string) => void) => Promise<SyncResult>,
): Omit<StartedSync, "isLightPoll"> {
  let announce: (id: string) => void = () => {};
  const syncRunId = new Promise<string>((resolve) => {
    announce = resolve;
  });
  const stopHeartbeat = startHeartbeat(services, lease, connectionId, controller);
  const done = run(announce).finally(async () => {
    stopHeartbeat();
    await releaseLease(services.prisma, connectionId, lease.holder).catch((error: unknown) =>
      services.logger.warn({ err: error, connectionId }, "Could not release the sync lease"),
    );
  });
  return { syncRunId: Promise.race([syncRunId, done.then((r) => r.syncRunId)]), done };
}

/**
 * Publishes a run's progress events, each with the run id once the run has started; `onStarted`
 * is told that id first.
 */
export function progressPublisher(
  services: AppServices,
  connectionId: string,
  onStarted: (syncRunId: string) => void,
): (event: SyncProgressEvent) => void {
  let runId: string | null = null;
  return (event) => {
    if (event.type === "started") {
      runId = event.syncRunId;
      onStarted(runId);
    }
    publishProgress(services.events, {
      connectionId,
      syncRunId: runId,
      at: new Date().toISOString(),
      event,
    });
  };
}

/** Runs the sync of a connection whose lease is held; releases the lease when it ends. */
export function runUnderLease(
  services: AppServices,
  lease: HeldLease,
  connection: Connection,
  options: SyncOptions,
  controller: AbortController,
): StartedSync {
  const { prisma, metrics } = services;
  const id = connection.id;
  const startedAt = performance.now();
  const correlationId = randomUUID();
  // At info a sync writes two lines, its start and its end with counts; its failed hypervisor
  // calls add theirs, the successful ones only at debug (docs/operations.md, "Log levels").
  const logger = services.logger.child({ connectionId: id, correlationId });
  const syncRun = (announce: (syncRunId: string) => void) =>
    (async () => {
      const tracer = services.tracing?.tracer;
      const span = tracer
        ? startSyncSpan(tracer, {
            connectionId: id,
            kind: connection.kind,
            trigger: options.trigger,
            isDryRun: options.dryRun ?? false,
            correlationId,
          })
        : undefined;
      const emit = progressPublisher(services, id, (runId) => {
        logger.info(
          {
            syncRunId: runId,
            source: connection.kind,
            trigger: options.trigger,
            dryRun: options.dryRun ?? false,
          },
          "Sync started",
        );
        announce(runId);
        span?.setRunId(runId);
        recordLeaseRun(prisma, id, lease.holder, runId).catch((error: unknown) =>
          services.logger.warn(
            { err: error, connectionId: id },
            "Could not record the lease's run",
          ),
        );
      });
      const running = runSync({
        prisma,
        connectionId: id,
        source: connection.kind,
        trigger: options.trigger,
        dryRun: options.dryRun ?? false,
        correlationId,
        emit,
        onFeedAdvanced: () => services.events.publish("feed:advanced", { connectionId: id }),
        now: lease.now,
        signal: controller.signal,
        read: async (signal) => {
          const secret = await readConnectionSecret(prisma, services.secrets, id);
          const session = openHypervisorSession(services, connection, secret, correlationId, span);
          try {
            return await session.read(signal);
          } finally {
            // TRAP: docs/behaviour.md §4 — Director/vCenter sessions are logged out after a stopped sync too.
            await session.close();
          }
        },
      });
      try {
        const result = await running;
        span?.finish(result);
        return result;
      } catch (error) {
        span?.fail(error);
        throw error;
      }
    })().then((result) => {
      const source = connection.kind;
      const seconds = (performance.now() - startedAt) / 1000;
      const isFailed = result.outcome === "FAILED" || result.outcome === "CANCELLED";
      const ended = {
        syncRunId: result.syncRunId,
        outcome: result.outcome,
        counts: result.counts,
        durationMs: Math.round(seconds * 1000),
      };
      if (isFailed) {
        logger.warn(
          { ...ended, errorClass: result.errorClass, message: result.message },
          "Sync finished",
        );
      } else logger.info(ended, "Sync finished");
      metrics.syncDuration.observe({ source, outcome: result.outcome }, seconds);
      metrics.syncRuns.inc({ source, outcome: result.outcome, trigger: options.trigger });
      if (result.guardFired) metrics.guardActivations.inc({ source });
      return result;
    });
  return whileLeaseHeld(services, lease, id, controller, syncRun);
}
