// The syncs of one replica, and the answer to "what happens when two replicas are asked to sync the
// same connection" (docs/behaviour.md §8: at most one sync of a connection runs, across replicas):
//
// 1. Both ask the database for the connection's lease (lease.ts: one INSERT … ON CONFLICT that only
//    takes an expired row), so exactly one wins. A lease whose holder's process is known dead (same
//    machine, its pid gone: process-identity.ts) is taken over at once instead of after its expiry.
// 2. The winner reads the connection again under the lease (`shouldRun`: the scheduler's "still
//    due?" is judged here, so a replica with a stale view does not sync right after another), closes
//    the runs a dead holder left RUNNING, and syncs (run-under-lease.ts): a heartbeat renews the
//    lease and stops the sync if it was lost, the lease row names the run, the lease is released at
//    the end.
// 3. The other never starts a parallel sync. A manual request (`syncConnection`) joins: it reports
//    the holder's run as its own and polls the lease until that run ends. If the holder lets go
//    without finishing it (it died, and its run was closed as interrupted) or is known dead, the
//    request goes round its loop again and tries to take the lease itself. The scheduler and
//    `sync --all` (`trySyncConnection`) only hear "held"; the scheduler does not ask again before
//    the lease expires.
// 4. On one replica, a request that comes while another's attempt is under way waits for that
//    attempt and joins its sync without asking the database (or, if it started none, tries itself).
//
// One coordinator per app instance (several in one process behave as separate replicas, as tests
// use them); its running syncs and its "stopping" switch change only here.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { SyncResult } from "@hyperlens/sync";
import type { AppServices } from "../context.ts";
import { NotFoundError, ShuttingDownError } from "../errors.ts";
import { findConnection } from "../services/connections.ts";
import { joinHolder } from "./join-holder.ts";
import {
  acquireLease,
  closeAbandonedRuns,
  currentLease,
  type LeaseHolder,
  releaseLease,
  takeOverLease,
} from "./lease.ts";
import { isProcessKnownDead, type ProcessIdentity, processIdentity } from "./process-identity.ts";
import { announceFeedAdvanced } from "./progress-events.ts";
import { runLightPollUnderLease } from "./run-light-poll.ts";
import { runUnderLease, type StartedSync, type SyncOptions } from "./run-under-lease.ts";

/** What a sync attempt came to: started here, held by someone else, or not needed. */
export type SyncAttempt =
  | { kind: "started"; sync: StartedSync }
  | { kind: "held"; lease: LeaseHolder | undefined }
  | { kind: "skipped" };

/** The syncs of one replica. */
export interface SyncCoordinator {
  /** The lease holder name: host, process and instance, so an operator can tell replicas apart. */
  readonly holder: string;
  /** This process as another server on the machine can check it, stored with each lease taken. */
  readonly holderProcess: ProcessIdentity | null;
  readonly leaseTtlMs: number;
  /** How often a request that joined another replica's sync checks on it. */
  readonly joinPollMs: number;
  /** The clock runs are stamped with and due-ness is judged by (tests). */
  readonly now: () => Date;
  /** True once the server stops taking syncs (shutdown). */
  readonly isStopping: boolean;
  /** Whether this replica is syncing the connection, or trying to. */
  isSyncingHere(connectionId: string): boolean;
  /** See {@link trySyncConnection}. */
  trySync(services: AppServices, id: string, options: SyncOptions): Promise<SyncAttempt>;
  /** See {@link syncConnection}. */
  sync(services: AppServices, id: string, options: SyncOptions): StartedSync;
  /** Refuses new syncs from now on; the running ones go on. */
  stopTakingSyncs(): void;
  /**
   * Stops taking syncs, lets the running ones finish for up to `graceMs`, then stops the rest at
   * their safe point and waits for them to record their outcome, log out and release their leases.
   */
  drain(graceMs: number): Promise<void>;
}

/** Options of {@link createSyncCoordinator}. */
export interface SyncCoordinatorOptions {
  leaseTtlMs?: number;
  joinPollMs?: number;
  now?: () => Date;
  /** A label put in front of the holder name ("cli" for the command line). */
  role?: string;
}

/** A sync this replica started and the switch that stops it at its safe point. */
interface LocalSync {
  controller: AbortController;
  /** Settles when the attempt is over (started and finished, or not started). */
  settled: Promise<unknown>;
  /** The sync, once it holds the lease. */
  started: Promise<StartedSync | undefined>;
}

const SHUTTING_DOWN = "The server is shutting down and starts no new syncs; try again shortly.";

/**
 * Tries to start a sync of one connection here; never waits for another's. The scheduler and
 * `sync --all` use it. Throws a ShuttingDownError once the server stops taking work.
 */
export function trySyncConnection(
  services: AppServices,
  id: string,
  options: SyncOptions,
): Promise<SyncAttempt> {
  return services.syncs.trySync(services, id, options);
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
  return services.syncs.sync(services, id, options);
}

/** Creates the sync coordinator of one app instance. */
export function createSyncCoordinator(options: SyncCoordinatorOptions = {}): SyncCoordinator {
  const running = new Map<string, LocalSync>();
  let isStopping = false;

  /** Starts an attempt here, known to this replica until it is over. */
  function attemptHere(services: AppServices, id: string, options: SyncOptions) {
    const controller = new AbortController();
    const attempt = attemptUnderLease(services, coordinator, id, options, controller);
    const started = attempt.then(
      (a) => (a.kind === "started" ? a.sync : undefined),
      () => undefined,
    );
    const settled = started.then((sync) => sync?.done.catch(() => undefined));
    const entry = { controller, started, settled };
    running.set(id, entry);
    // Registered first, so anyone waiting on this entry finds it gone when they look again.
    void settled.finally(() => {
      if (running.get(id) === entry) running.delete(id);
    });
    return attempt;
  }

  async function trySync(
    services: AppServices,
    id: string,
    options: SyncOptions,
  ): Promise<SyncAttempt> {
    for (;;) {
      if (isStopping) throw new ShuttingDownError(SHUTTING_DOWN);
      const local = running.get(id);
      if (!local) return attemptHere(services, id, options);
      if (await local.started) {
        services.metrics.leaseContention.inc({ trigger: options.trigger, held_by: "this_server" });
        return { kind: "held", lease: undefined };
      }
      // That attempt started nothing (held elsewhere, not wanted, or failed) and is going: look again.
    }
  }

  async function startOrJoin(
    services: AppServices,
    id: string,
    options: SyncOptions,
    onRunId: (runId: string) => void,
  ): Promise<SyncResult> {
    for (;;) {
      const attempt = await trySync(services, id, options);
      if (attempt.kind === "started") return follow(attempt.sync, onRunId);
      if (attempt.kind === "skipped") {
        throw isStopping
          ? new ShuttingDownError(SHUTTING_DOWN)
          : new NotFoundError(`Connection ${id} was not synced.`);
      }
      if (!attempt.lease) {
        const local = running.get(id);
        const started = local ? await local.started : undefined;
        // TRAP: docs/behaviour.md §8.7 — a light poll is not the sync asked for: wait it out, then sync.
        if (started?.isLightPoll) {
          await local?.settled;
          continue;
        }
        if (started) return follow(started, onRunId);
      }
      const result = await joinHolder(services, coordinator.joinPollMs, id, attempt.lease, onRunId);
      if (result) return result;
      // The holder is gone without finishing: this request becomes the sync (or joins whoever
      // was faster) on its next round.
    }
  }

  function sync(services: AppServices, id: string, options: SyncOptions): StartedSync {
    if (isStopping) throw new ShuttingDownError(SHUTTING_DOWN);
    // A promise settles once: the first run id announced is the one this request reports.
    let announce: (id: string) => void = () => {};
    const syncRunId = new Promise<string>((resolve) => {
      announce = resolve;
    });
    const done = startOrJoin(services, id, options, announce);
    // Callers may only wait for the start; a failure must still not become an unhandled rejection.
    done.catch((error: unknown) =>
      services.logger.error({ err: error, connectionId: id }, "Sync could not run"),
    );
    // A sync that fails before its run is recorded (unknown connection) ends the wait too.
    return { syncRunId: Promise.race([syncRunId, done.then((r) => r.syncRunId)]), done };
  }

  async function drain(graceMs: number): Promise<void> {
    isStopping = true;
    const all = () => Promise.allSettled([...running.values()].map((s) => s.settled));
    let timer: NodeJS.Timeout | undefined;
    const isDrained = await Promise.race([
      all().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (isDrained) return;
    for (const local of running.values()) {
      local.controller.abort(new Error("The server is shutting down."));
    }
    await all();
  }

  const coordinator: SyncCoordinator = {
    holder: `${options.role ?? "api"}@${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    holderProcess: processIdentity(),
    leaseTtlMs: options.leaseTtlMs ?? 60_000,
    joinPollMs: options.joinPollMs ?? 500,
    now: options.now ?? (() => new Date()),
    get isStopping() {
      return isStopping;
    },
    isSyncingHere: (connectionId) => running.has(connectionId),
    trySync,
    sync,
    stopTakingSyncs: () => {
      isStopping = true;
    },
    drain,
  };
  return coordinator;
}

/** Reports a sync's run id as soon as it is known, and ends with it. */
function follow(sync: StartedSync, onRunId: (runId: string) => void): Promise<SyncResult> {
  sync.syncRunId.then(onRunId, () => {});
  return sync.done;
}

/** Takes the lease when it is free or expired, or its holder's process is known dead. */
async function holdLease(
  services: AppServices,
  syncs: SyncCoordinator,
  id: string,
): Promise<boolean> {
  const { prisma } = services;
  const { holder, holderProcess, leaseTtlMs } = syncs;
  if (await acquireLease(prisma, id, holder, leaseTtlMs, holderProcess)) return true;
  const lease = await currentLease(prisma, id);
  // TRAP: docs/behaviour.md §8 — a killed server's lease outlives it by up to a lease life; waiting for it
  // would have this request join (and report) a run that no one is doing.
  if (!lease || !isProcessKnownDead(lease.holderProcess)) return false;
  return takeOverLease(prisma, id, lease.holder, holder, leaseTtlMs, holderProcess);
}

/** Takes the lease and, when the connection still wants it, starts its sync here. */
async function attemptUnderLease(
  services: AppServices,
  syncs: SyncCoordinator,
  id: string,
  options: SyncOptions,
  controller: AbortController,
): Promise<SyncAttempt> {
  const { prisma } = services;
  await findConnection(prisma, id);
  // TRAP: docs/behaviour.md §8 — every sync, scheduled or manual, of this replica or another, takes the lease.
  if (!(await holdLease(services, syncs, id))) {
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
    const abandoned = await closeAbandonedRuns(prisma, id, announceFeedAdvanced(services.events));
    if (abandoned) {
      services.logger.warn(
        { connectionId: id, runs: abandoned },
        "Closed runs of a server that stopped",
      );
    }
    const sync = options.lightPoll
      ? runLightPollUnderLease(services, syncs, connection, controller)
      : runUnderLease(services, syncs, connection, options, controller);
    return { kind: "started", sync };
  } catch (error) {
    await releaseLease(prisma, id, syncs.holder).catch(() => {});
    throw error;
  }
}
