// When a connection's next sync is due: its interval after its last recorded sync.

/** What due-ness is judged from. */
export interface Schedulable {
  syncIntervalSeconds: number;
  /** When the last sync that counted ended (a dry run or a stopped sync does not count). */
  lastSyncAt: Date | null;
}

/**
 * The instant (ms) a connection's next sync is due. A connection never synced is due when it was
 * first seen (plus its jitter, so a fresh install does not start every connection at once).
 */
export function dueAt(
  connection: Schedulable,
  jitterMs = 0,
  firstSeenAt = Number.NEGATIVE_INFINITY,
): number {
  const base = connection.lastSyncAt
    ? connection.lastSyncAt.getTime() + connection.syncIntervalSeconds * 1000
    : firstSeenAt;
  return base + jitterMs;
}

/** True when the connection's interval has passed since its last sync (plus its jitter). */
export function isDue(connection: Schedulable, now: Date, jitterMs = 0): boolean {
  return now.getTime() >= dueAt(connection, jitterMs);
}

/** What a light poll's due-ness is judged from (docs/behaviour.md §8.7). */
export interface Pollable {
  /** 0: not polled. */
  lightPollSeconds: number;
  lastLightPollAt: Date | null;
  lastSyncAt: Date | null;
}

/** True when the connection is polled and its poll interval has passed since its last poll or sync. */
export function isLightPollDue(connection: Pollable, now: Date): boolean {
  if (connection.lightPollSeconds <= 0) return false;
  const times = [connection.lastLightPollAt, connection.lastSyncAt].flatMap((t) =>
    t ? [t.getTime()] : [],
  );
  const last = times.length ? Math.max(...times) : Number.NEGATIVE_INFINITY;
  return now.getTime() >= last + connection.lightPollSeconds * 1000;
}
