// The scheduler of one API process: each active connection syncs on its own interval, with
// jitter. It re-reads the connections table every `refreshMs`, so a new, changed or deactivated
// connection takes effect without a restart. Replicas each run one; the sync lease makes sure a
// connection due on several of them is synced once.
import type { AppServices } from "../context.ts";
import { ShuttingDownError } from "../errors.ts";
import { connectionSettings } from "../sources/connection-settings.ts";
import { driverFor } from "../sources/registry.ts";
import { trySyncConnection } from "./coordinator.ts";
import { dueAt, isDue, isLightPollDue, type Schedulable } from "./due.ts";

/** Options of {@link createScheduler}. */
export interface SchedulerOptions {
  /** How often the connections table is re-read (default 15 s). */
  refreshMs?: number;
  /** How often due-ness is checked against the last read (default 1 s); no query unless one is due. */
  tickMs?: number;
  /** The most a sync is delayed at random (default 30 s, and never more than a tenth of its interval). */
  maxJitterMs?: number;
  /** The random draw in [0, 1) (tests). */
  random?: () => number;
  /** Start the timer (default true); tests drive {@link Scheduler.tick} themselves. */
  useTimer?: boolean;
}

/** A running scheduler. */
export interface Scheduler {
  /** One pass: re-read the connections when the refresh is due, start every due sync. */
  tick(): Promise<void>;
  /** Resolves when every sync this scheduler started has ended (tests). */
  idle(): Promise<void>;
  /** Stops scheduling; running syncs are the shutdown's business. */
  stop(): Promise<void>;
}

interface Entry extends Schedulable {
  id: string;
  /** 0 when the connection is not polled (off, or its kind has no light poll). */
  lightPollSeconds: number;
  lastLightPollAt: Date | null;
  firstSeenAt: number;
  jitterMs: number;
  /** Someone else holds the lease: do not ask again before this instant. */
  heldUntil: number;
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (!a || !b) return a ?? b;
  return a > b ? a : b;
}

/** Creates (and by default starts) the scheduler of this process. */
export function createScheduler(services: AppServices, options: SchedulerOptions = {}): Scheduler {
  const refreshMs = options.refreshMs ?? 15_000;
  const tickMs = Math.min(options.tickMs ?? 1_000, refreshMs);
  const maxJitterMs = options.maxJitterMs ?? 30_000;
  const random = options.random ?? Math.random;
  const now = () => services.syncs.now();
  const entries = new Map<string, Entry>();
  const started = new Set<Promise<unknown>>();
  let lastRefresh = Number.NEGATIVE_INFINITY;
  let isStopped = false;
  let ticking: Promise<void> | undefined;

  const drawJitter = (intervalSeconds: number) =>
    Math.floor(random() * Math.min(maxJitterMs, intervalSeconds * 100));

  async function refresh(at: number) {
    const rows = await services.prisma.connection.findMany({
      where: { isActive: true },
      select: {
        id: true,
        kind: true,
        settings: true,
        syncIntervalSeconds: true,
        lastSyncAt: true,
        lastLightPollAt: true,
      },
    });
    const seen = new Set<string>();
    for (const { kind, settings, ...row } of rows) {
      seen.add(row.id);
      const lightPollSeconds = driverFor(kind)?.hasLightPoll
        ? connectionSettings({ kind, settings }).lightPollSeconds
        : 0;
      const old = entries.get(row.id);
      const isSameSync =
        old &&
        old.lastSyncAt?.getTime() === row.lastSyncAt?.getTime() &&
        old.syncIntervalSeconds === row.syncIntervalSeconds;
      entries.set(row.id, {
        ...row,
        lightPollSeconds,
        // A poll this process ran since the last read is newer than the row it read.
        lastLightPollAt: latest(old?.lastLightPollAt ?? null, row.lastLightPollAt),
        firstSeenAt: old?.firstSeenAt ?? at,
        // A new jitter per sync cycle, so two connections are not tied together for ever.
        jitterMs: old && isSameSync ? old.jitterMs : drawJitter(row.syncIntervalSeconds),
        heldUntil: old && isSameSync ? old.heldUntil : Number.NEGATIVE_INFINITY,
      });
    }
    for (const id of entries.keys()) if (!seen.has(id)) entries.delete(id);
    lastRefresh = at;
  }

  async function pollIfDue(entry: Entry, at: Date) {
    // The first sync of a connection is a full one: a poll has nothing to compare with before it.
    if (!entry.lastSyncAt || !isLightPollDue(entry, at)) return;
    const attempt = await trySyncConnection(services, entry.id, {
      trigger: "SCHEDULE",
      lightPoll: true,
      // TRAP: docs/behaviour.md §8.7 — judged again under the lease, on the row every replica
      // shares: a replica that polled it a moment ago makes this one skip.
      shouldRun: (connection) =>
        connection.isActive &&
        !isDue(connection, services.syncs.now()) &&
        isLightPollDue(
          { ...connection, lightPollSeconds: entry.lightPollSeconds },
          services.syncs.now(),
        ),
    });
    if (attempt.kind === "held") {
      entry.lastLightPollAt = at;
    } else if (attempt.kind === "skipped") {
      lastRefresh = Number.NEGATIVE_INFINITY;
    } else {
      const done = attempt.sync.done.then(
        () => {
          entry.lastLightPollAt = services.syncs.now();
        },
        () => {},
      );
      started.add(done);
      void done.finally(() => started.delete(done));
    }
  }

  async function startIfDue(entry: Entry, at: Date) {
    if (services.syncs.isSyncingHere(entry.id)) return;
    if (at.getTime() < entry.heldUntil) return;
    if (at.getTime() < dueAt(entry, entry.jitterMs, entry.firstSeenAt)) return pollIfDue(entry, at);
    const attempt = await trySyncConnection(services, entry.id, {
      trigger: "SCHEDULE",
      // TRAP: docs/behaviour.md §8 — judged again on the row read under the lease: another replica may have
      // synced it since our last refresh, and must not be followed by a second sync.
      shouldRun: (connection) => connection.isActive && isDue(connection, services.syncs.now()),
    });
    if (attempt.kind === "held") {
      entry.heldUntil = attempt.lease?.expiresAt.getTime() ?? at.getTime() + tickMs;
    } else if (attempt.kind === "skipped") {
      lastRefresh = Number.NEGATIVE_INFINITY;
    } else {
      const done = attempt.sync.done.then(
        (result) => {
          if (result.outcome !== "CANCELLED") {
            entry.lastSyncAt = services.syncs.now();
            // A full sync saw everything a poll would: the next poll is an interval after it.
            entry.lastLightPollAt = entry.lastSyncAt;
          }
          entry.jitterMs = drawJitter(entry.syncIntervalSeconds);
        },
        () => {},
      );
      started.add(done);
      void done.finally(() => started.delete(done));
    }
  }

  async function pass() {
    const at = now();
    if (at.getTime() - lastRefresh >= refreshMs) await refresh(at.getTime());
    for (const entry of [...entries.values()]) {
      if (isStopped || services.syncs.isStopping) return;
      try {
        await startIfDue(entry, at);
      } catch (error) {
        if (error instanceof ShuttingDownError) return;
        services.logger.error({ err: error, connectionId: entry.id }, "Could not start a sync");
      }
    }
  }

  const tick = () => {
    // One pass at a time: a slow database must not pile passes up.
    ticking ??= pass()
      .catch((error: unknown) => services.logger.error({ err: error }, "Scheduler pass failed"))
      .finally(() => {
        ticking = undefined;
      });
    return ticking;
  };

  const timer = options.useTimer === false ? undefined : setInterval(() => void tick(), tickMs);
  timer?.unref();
  if (timer) void tick();

  return {
    tick,
    idle: async () => {
      while (started.size) await Promise.all([...started]);
    },
    stop: async () => {
      isStopped = true;
      if (timer) clearInterval(timer);
      await ticking;
    },
  };
}
