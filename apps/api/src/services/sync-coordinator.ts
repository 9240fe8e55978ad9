// Per-app state of the syncs this replica runs: its lease holder name, the syncs in flight (each
// with the AbortSignal that stops it), and whether it still takes work. One per app instance, so
// several apps in one process (tests) behave as separate replicas.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { SyncResult } from "@hyperlens/sync";
import { type ProcessIdentity, processIdentity } from "../syncs/process-identity.ts";

/** A sync this replica started and the switch that stops it at its safe point. */
export interface LocalSync {
  controller: AbortController;
  /** Settles when the attempt is over (started and finished, or not started). */
  settled: Promise<unknown>;
  /** The sync, once it holds the lease. */
  started: Promise<{ syncRunId: Promise<string>; done: Promise<SyncResult> } | undefined>;
}

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
  readonly running: Map<string, LocalSync>;
  isStopping: boolean;
}

/** Options of {@link createSyncCoordinator}. */
export interface SyncCoordinatorOptions {
  leaseTtlMs?: number;
  joinPollMs?: number;
  now?: () => Date;
  /** A label put in front of the holder name ("cli" for the command line). */
  role?: string;
}

/** Creates the sync state of one app instance. */
export function createSyncCoordinator(options: SyncCoordinatorOptions = {}): SyncCoordinator {
  return {
    holder: `${options.role ?? "api"}@${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    holderProcess: processIdentity(),
    leaseTtlMs: options.leaseTtlMs ?? 60_000,
    joinPollMs: options.joinPollMs ?? 500,
    now: options.now ?? (() => new Date()),
    running: new Map(),
    isStopping: false,
  };
}

/**
 * Stops taking syncs, lets the running ones finish for up to `graceMs`, then stops the rest at
 * their safe point and waits for them to record their outcome, log out and release their leases.
 */
export async function drainSyncs(syncs: SyncCoordinator, graceMs: number): Promise<void> {
  syncs.isStopping = true;
  const all = () => Promise.allSettled([...syncs.running.values()].map((s) => s.settled));
  let timer: NodeJS.Timeout | undefined;
  const isDrained = await Promise.race([
    all().then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), graceMs);
    }),
  ]);
  clearTimeout(timer);
  if (isDrained) return;
  for (const sync of syncs.running.values()) {
    sync.controller.abort(new Error("The server is shutting down."));
  }
  await all();
}
