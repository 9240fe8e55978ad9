// Testing and syncing a connection: the only path from the API and the CLI to a hypervisor.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Connection } from "@hyperlens/db";
import { isHyperError } from "@hyperlens/hyper-http";
import type { SyncCounts, SyncProgressEvent, SyncTrigger } from "@hyperlens/shared";
import { runSync, type SyncResult, ZERO_COUNTS } from "@hyperlens/sync";
import type { AppServices } from "../context.ts";
import { NotFoundError, SecretUnreadableError, ShuttingDownError } from "../errors.ts";
import { hyperMetricsOf } from "../metrics/metrics.ts";
import { driverFor } from "../sources/registry.ts";
import { traceHypervisorCalls } from "../telemetry/hypervisor-call-spans.ts";
import { type SyncSpan, startSyncSpan } from "../telemetry/sync-span.ts";
import { readConnectionSecret } from "./connections.ts";
import { isProcessKnownDead } from "./process-identity.ts";
import { publishProgress } from "./sync-events.ts";
import {
  acquireLease,
  closeAbandonedRuns,
  currentLease,
  INTERRUPTED_ERROR_CLASS,
  type LeaseHolder,
  recordLeaseRun,
  releaseLease,
  renewLease,
  takeOverLease,
} from "./sync-lease.ts";

/** What Test tells the administrator. */
export interface TestResult {
  ok: boolean;
  errorClass: string | null;
  message: string;
}

async function loadConnection(services: AppServices, id: string): Promise<Connection> {
  const connection = await services.prisma.connection.findUnique({ where: { id } });
  if (!connection) throw new NotFoundError(`No connection with id ${id} exists.`);
  return connection;
}

function openSession(
  services: AppServices,
  connection: Connection,
  secret: string,
  correlationId: string,
  syncSpan?: SyncSpan,
) {
  const driver = driverFor(connection.kind);
  if (!driver)
    throw new NotFoundError(`Connections of kind ${connection.kind} cannot be synced yet.`);
  const logger = services.logger.child({ connectionId: connection.id, correlationId });
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

/** Logs in and reads something small; reports the real reason on failure. */
export async function testConnection(services: AppServices, id: string): Promise<TestResult> {
  const connection = await loadConnection(services, id);
  try {
    const secret = await readConnectionSecret(services.prisma, services.secrets, id);
    const session = openSession(services, connection, secret, randomUUID());
    try {
      const { summary, privilegeWarning = null } = await session.test();
      await services.prisma.connection.update({ where: { id }, data: { privilegeWarning } });
      return {
        ok: true,
        errorClass: null,
        message: privilegeWarning ? `${summary} Warning: ${privilegeWarning}` : summary,
      };
    } finally {
      await session.close();
    }
  } catch (error) {
    if (isHyperError(error))
      return { ok: false, errorClass: error.errorClass, message: error.message };
    if (error instanceof NotFoundError)
      return { ok: false, errorClass: "config", message: error.message };
    if (error instanceof SecretUnreadableError)
      return { ok: false, errorClass: error.errorClass, message: error.message };
    throw error;
  }
}

/** A sync that has been asked for: its run id once the run is recorded, and its end. */
export interface StartedSync {
  syncRunId: Promise<string>;
  done: Promise<SyncResult>;
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
}

/** What a sync attempt came to: started here, held by someone else, or not needed. */
export type SyncAttempt =
  | { kind: "started"; sync: StartedSync }
  | { kind: "held"; lease: LeaseHolder | undefined }
  | { kind: "skipped" };

const SHUTTING_DOWN = "The server is shutting down and starts no new syncs; try again shortly.";

function resultOfRun(run: {
  id: string;
  outcome: string;
  counts: unknown;
  message: string | null;
  guardFired: boolean;
  errorClass: string | null;
}): SyncResult {
  const outcome = run.outcome === "RUNNING" ? "FAILED" : (run.outcome as SyncResult["outcome"]);
  return {
    syncRunId: run.id,
    outcome,
    counts: { ...ZERO_COUNTS, ...(run.counts as Partial<SyncCounts>) },
    message: run.message ?? "",
    guardFired: run.guardFired,
    suppressed: [],
    ...(run.errorClass ? { errorClass: run.errorClass } : {}),
  };
}

/** Keeps the lease alive while the sync runs; stops the sync when the lease is lost. */
function startHeartbeat(
  services: AppServices,
  connectionId: string,
  controller: AbortController,
): () => void {
  const { syncs, prisma, logger } = services;
  let lastRenewed = Date.now();
  const timer = setInterval(
    async () => {
      try {
        if (await renewLease(prisma, connectionId, syncs.holder, syncs.leaseTtlMs)) {
          lastRenewed = Date.now();
          return;
        }
        // TRAP: docs/behaviour.md §8 — a holder whose lease was taken over must stop, or two syncs of one
        // connection would run at once.
        logger.warn({ connectionId }, "Sync lease lost to another server; stopping this sync");
        controller.abort(new Error("Another server took over this connection's sync."));
      } catch (error) {
        logger.warn({ err: error, connectionId }, "Could not renew the sync lease");
        if (Date.now() - lastRenewed > syncs.leaseTtlMs) {
          controller.abort(new Error("The sync lease could not be renewed."));
        }
      }
    },
    Math.max(200, Math.floor(syncs.leaseTtlMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

function runUnderLease(
  services: AppServices,
  connection: Connection,
  options: SyncOptions,
  controller: AbortController,
): StartedSync {
  const { syncs, prisma, metrics } = services;
  const id = connection.id;
  let announce: (id: string) => void = () => {};
  const syncRunId = new Promise<string>((resolve) => {
    announce = resolve;
  });
  const stopHeartbeat = startHeartbeat(services, id, controller);
  const startedAt = performance.now();
  const done = (async () => {
    const correlationId = randomUUID();
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
    let runId: string | null = null;
    const emit = (event: SyncProgressEvent) => {
      if (event.type === "started") {
        runId = event.syncRunId;
        announce(runId);
        span?.setRunId(runId);
        recordLeaseRun(prisma, id, syncs.holder, runId).catch((error: unknown) =>
          services.logger.warn(
            { err: error, connectionId: id },
            "Could not record the lease's run",
          ),
        );
      }
      publishProgress(services.events, {
        connectionId: id,
        syncRunId: runId,
        at: new Date().toISOString(),
        event,
      });
    };
    const running = runSync({
      prisma,
      connectionId: id,
      source: connection.kind,
      trigger: options.trigger,
      dryRun: options.dryRun ?? false,
      correlationId,
      emit,
      now: syncs.now,
      signal: controller.signal,
      read: async (signal) => {
        const secret = await readConnectionSecret(prisma, services.secrets, id);
        const session = openSession(services, connection, secret, correlationId, span);
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
  })()
    .then((result) => {
      const source = connection.kind;
      metrics.syncDuration.observe(
        { source, outcome: result.outcome },
        (performance.now() - startedAt) / 1000,
      );
      metrics.syncRuns.inc({ source, outcome: result.outcome, trigger: options.trigger });
      if (result.guardFired) metrics.guardActivations.inc({ source });
      return result;
    })
    .finally(async () => {
      stopHeartbeat();
      await releaseLease(prisma, id, syncs.holder).catch((error: unknown) =>
        services.logger.warn({ err: error, connectionId: id }, "Could not release the sync lease"),
      );
    });
  return { syncRunId: Promise.race([syncRunId, done.then((r) => r.syncRunId)]), done };
}

/** Takes the lease when it is free or expired, or its holder's process is known dead. */
async function holdLease(services: AppServices, id: string): Promise<boolean> {
  const { syncs, prisma } = services;
  const { holder, holderProcess, leaseTtlMs } = syncs;
  if (await acquireLease(prisma, id, holder, leaseTtlMs, holderProcess)) return true;
  const lease = await currentLease(prisma, id);
  // TRAP: docs/behaviour.md §8 — a killed server's lease outlives it by up to a lease life; waiting for it
  // would have this request join (and report) a run that no one is doing.
  if (!lease || !isProcessKnownDead(lease.holderProcess)) return false;
  return takeOverLease(prisma, id, lease.holder, holder, leaseTtlMs, holderProcess);
}

async function attemptSync(
  services: AppServices,
  id: string,
  options: SyncOptions,
  controller: AbortController,
): Promise<SyncAttempt> {
  const { syncs, prisma } = services;
  await loadConnection(services, id);
  // TRAP: docs/behaviour.md §8 — every sync, scheduled or manual, of this replica or another, takes the lease.
  if (!(await holdLease(services, id))) {
    services.metrics.leaseContention.inc({ trigger: options.trigger, held_by: "another_server" });
    return { kind: "held", lease: await currentLease(prisma, id) };
  }
  try {
    const connection = await prisma.connection.findUnique({ where: { id } });
    const isWanted = connection && !syncs.isStopping && (options.shouldRun?.(connection) ?? true);
    if (!connection || !isWanted) {
      await releaseLease(prisma, id, syncs.holder);
      if (!connection) throw new NotFoundError(`No connection with id ${id} exists.`);
      return { kind: "skipped" };
    }
    const abandoned = await closeAbandonedRuns(prisma, id);
    if (abandoned) {
      services.logger.warn(
        { connectionId: id, runs: abandoned },
        "Closed runs of a server that stopped",
      );
    }
    return { kind: "started", sync: runUnderLease(services, connection, options, controller) };
  } catch (error) {
    await releaseLease(prisma, id, syncs.holder).catch(() => {});
    throw error;
  }
}

/**
 * Tries to start a sync of one connection here; never waits for another's. The scheduler and
 * `sync --all` use it. Throws a ShuttingDownError once the server stops taking work.
 */
export function trySyncConnection(
  services: AppServices,
  id: string,
  options: SyncOptions,
): Promise<SyncAttempt> {
  const { syncs } = services;
  if (syncs.isStopping) return Promise.reject(new ShuttingDownError(SHUTTING_DOWN));
  const local = syncs.running.get(id);
  if (local) {
    return local.started.then((started) => {
      if (!started) return trySyncConnection(services, id, options);
      services.metrics.leaseContention.inc({ trigger: options.trigger, held_by: "this_server" });
      return { kind: "held", lease: undefined };
    });
  }
  const controller = new AbortController();
  const attempt = attemptSync(services, id, options, controller);
  const started = attempt.then(
    (a) => (a.kind === "started" ? a.sync : undefined),
    () => undefined,
  );
  const settled = started.then((sync) => sync?.done.catch(() => undefined));
  const entry = { controller, started, settled };
  syncs.running.set(id, entry);
  // Registered first, so anyone waiting on this entry finds it gone when they look again.
  void settled.finally(() => {
    if (syncs.running.get(id) === entry) syncs.running.delete(id);
  });
  return attempt;
}

/** Waits for another holder's run; takes over when that holder stops holding the lease. */
async function joinHeld(
  services: AppServices,
  id: string,
  options: SyncOptions,
  lease: LeaseHolder | undefined,
  onRunId: (runId: string) => void,
): Promise<SyncResult> {
  const { prisma, syncs } = services;
  // A run closed as interrupted was not finished by its holder, who died: not the sync asked for.
  const finished = async (runId: string | null) => {
    const run = runId ? await prisma.syncRun.findUnique({ where: { id: runId } }) : null;
    return run && run.outcome !== "RUNNING" && run.errorClass !== INTERRUPTED_ERROR_CLASS
      ? run
      : undefined;
  };
  let current = lease;
  // Released between our attempt and our look: wait a moment before trying again.
  if (!current) await sleep(syncs.joinPollMs);
  // TRAP: docs/behaviour.md §8 — a holder known dead is doing no sync: its run is never reported as this one.
  while (current && !isProcessKnownDead(current.holderProcess)) {
    if (current.syncRunId) onRunId(current.syncRunId);
    const run = await finished(current.syncRunId);
    if (run) return resultOfRun(run);
    await sleep(syncs.joinPollMs);
    const next = await currentLease(prisma, id);
    if (!next) {
      // Released: the run has its outcome unless its holder died (then the next holder closes it).
      const released = await finished(current.syncRunId);
      if (released) return resultOfRun(released);
    }
    if (!next || next.holder !== current.holder) break;
    current = next;
  }
  // The holder is gone: this request becomes the sync (or joins whoever was faster).
  return startOrJoin(services, id, options, onRunId);
}

async function startOrJoin(
  services: AppServices,
  id: string,
  options: SyncOptions,
  onRunId: (runId: string) => void,
): Promise<SyncResult> {
  const attempt = await trySyncConnection(services, id, options);
  if (attempt.kind === "started") {
    attempt.sync.syncRunId.then(onRunId, () => {});
    return attempt.sync.done;
  }
  if (attempt.kind === "skipped") {
    throw services.syncs.isStopping
      ? new ShuttingDownError(SHUTTING_DOWN)
      : new NotFoundError(`Connection ${id} was not synced.`);
  }
  if (!attempt.lease) {
    const local = services.syncs.running.get(id);
    const started = local ? await local.started : undefined;
    if (started) {
      started.syncRunId.then(onRunId, () => {});
      return started.done;
    }
  }
  return joinHeld(services, id, options, attempt.lease, onRunId);
}

/**
 * Syncs one connection now (manual: UI, API, CLI). A second request while one runs — here or on
 * another replica — joins the running one and reports its run; it never starts a parallel sync.
 * Throws a ShuttingDownError once the server stops taking work.
 */
export function syncConnection(
  services: AppServices,
  id: string,
  options: SyncOptions,
): StartedSync {
  if (services.syncs.isStopping) throw new ShuttingDownError(SHUTTING_DOWN);
  let announce: (id: string) => void = () => {};
  let isAnnounced = false;
  const syncRunId = new Promise<string>((resolve) => {
    announce = resolve;
  });
  const onRunId = (runId: string) => {
    if (isAnnounced) return;
    isAnnounced = true;
    announce(runId);
  };
  const done = startOrJoin(services, id, options, onRunId);
  // Callers may only wait for the start; a failure must still not become an unhandled rejection.
  done.catch((error: unknown) =>
    services.logger.error({ err: error, connectionId: id }, "Sync could not run"),
  );
  // A sync that fails before its run is recorded (unknown connection) ends the wait too.
  return { syncRunId: Promise.race([syncRunId, done.then((r) => r.syncRunId)]), done };
}
