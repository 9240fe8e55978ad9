// The sync lease: one row per connection in sync_leases, held by one replica while it syncs that
// connection. Plain SQL on the table, so PGlite and PostgreSQL behave the same (docs/architecture.md,
// "Leases").
import { Prisma, type PrismaClient } from "@hyperlens/db";
import { appendInventoryEvents, syncFailedEvent, ZERO_COUNTS } from "@hyperlens/sync";
import { isProcessKnownDead, type ProcessIdentity } from "./process-identity.ts";

/** Who holds a connection's lease, and the run it is doing (null while the run is being recorded). */
export interface LeaseHolder {
  holder: string;
  /** The holder's process, for {@link isProcessKnownDead}; null when not known. */
  holderProcess: string | null;
  syncRunId: string | null;
  expiresAt: Date;
}

/**
 * Takes the connection's lease for `ttlMs` when it is free or expired; false when someone holds it.
 * The database's clock decides expiry, so replicas with skewed clocks still agree.
 */
export async function acquireLease(
  prisma: PrismaClient,
  connectionId: string,
  holder: string,
  ttlMs: number,
  holderProcess: ProcessIdentity | null = null,
): Promise<boolean> {
  // TRAP: docs/behaviour.md §8 — one statement decides: the conflicting row is only taken over when expired, so
  // two replicas racing for a free or expired lease cannot both win.
  const rows = await prisma.$queryRaw<{ holder: string }[]>`
    INSERT INTO sync_leases ("connectionId", holder, "holderProcess", "syncRunId", "acquiredAt", "expiresAt")
    VALUES (${connectionId}::uuid, ${holder}, ${holderProcess}, NULL, now(),
      now() + ${ttlMs}::int * interval '1 millisecond')
    ON CONFLICT ("connectionId") DO UPDATE
      SET holder = EXCLUDED.holder, "holderProcess" = EXCLUDED."holderProcess", "syncRunId" = NULL,
          "acquiredAt" = EXCLUDED."acquiredAt", "expiresAt" = EXCLUDED."expiresAt"
      WHERE sync_leases."expiresAt" < now()
    RETURNING holder`;
  return rows.length === 1;
}

/**
 * Takes over a live lease from `deadHolder`, a holder whose process is known dead
 * ({@link isProcessKnownDead}); false when that holder no longer has it (released, or another
 * server took it over first). Compare-and-set on the holder name, so racing takers cannot both win.
 */
export async function takeOverLease(
  prisma: PrismaClient,
  connectionId: string,
  deadHolder: string,
  holder: string,
  ttlMs: number,
  holderProcess: ProcessIdentity | null,
): Promise<boolean> {
  const count = await prisma.$executeRaw`
    UPDATE sync_leases SET holder = ${holder}, "holderProcess" = ${holderProcess}, "syncRunId" = NULL,
      "acquiredAt" = now(), "expiresAt" = now() + ${ttlMs}::int * interval '1 millisecond'
    WHERE "connectionId" = ${connectionId}::uuid AND holder = ${deadHolder}`;
  return count === 1;
}

/** Extends a held lease; false when it was lost (expired and taken by someone else, or released). */
export async function renewLease(
  prisma: PrismaClient,
  connectionId: string,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  const count = await prisma.$executeRaw`
    UPDATE sync_leases SET "expiresAt" = now() + ${ttlMs}::int * interval '1 millisecond'
    WHERE "connectionId" = ${connectionId}::uuid AND holder = ${holder}`;
  return count === 1;
}

/** Records which run the holder is doing, so a second request can report that run. */
export async function recordLeaseRun(
  prisma: PrismaClient,
  connectionId: string,
  holder: string,
  syncRunId: string,
): Promise<void> {
  await prisma.$executeRaw`
    UPDATE sync_leases SET "syncRunId" = ${syncRunId}::uuid
    WHERE "connectionId" = ${connectionId}::uuid AND holder = ${holder}`;
}

/** Gives the lease up; a lease someone else took over meanwhile is left alone. */
export async function releaseLease(
  prisma: PrismaClient,
  connectionId: string,
  holder: string,
): Promise<void> {
  await prisma.$executeRaw`
    DELETE FROM sync_leases WHERE "connectionId" = ${connectionId}::uuid AND holder = ${holder}`;
}

/** The live (unexpired) holder of a connection's lease, if any. */
export async function currentLease(
  prisma: PrismaClient,
  connectionId: string,
): Promise<LeaseHolder | undefined> {
  const rows = await prisma.$queryRaw<LeaseHolder[]>`
    SELECT holder, "holderProcess", "syncRunId", "expiresAt" FROM sync_leases
    WHERE "connectionId" = ${connectionId}::uuid AND "expiresAt" >= now()`;
  return rows[0];
}

/** The errorClass of a run closed by someone else because its holder died. */
export const INTERRUPTED_ERROR_CLASS = "interrupted";

const INTERRUPTED_MESSAGE =
  "Interrupted: the server running this sync stopped before it finished. Its counts are what it had committed; nothing was removed by it after its last committed step.";

/** Told, after a closing committed, each connection whose change feed it appended to. */
export type FeedAdvancedListener = (connectionId: string) => void;

/**
 * Closes the RUNNING runs `where` selects as FAILED (`interrupted`) and records each on its
 * connection as a failed sync would (outcome, message, counts, one more consecutive failure) and
 * in the change feed (SYNC_FAILED), in one transaction. The run's counts are left as its committed
 * chunks wrote them. Dry runs change no connection's health and append no event. Returns the runs
 * closed.
 */
async function closeRunsAsInterrupted(
  prisma: PrismaClient,
  where: Prisma.Sql,
  onFeedAdvanced: FeedAdvancedListener = () => {},
): Promise<number> {
  // Most calls find nothing to close: they open no transaction (and take no feed lock) then.
  const [open] = await prisma.$queryRaw<{ isAny: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM sync_runs WHERE outcome = 'RUNNING' AND ${where}) AS "isAny"`;
  if (!open?.isAny) return 0;
  const closed = await prisma.$transaction(async (tx) => {
    // TRAP: docs/behaviour.md §8 — without the connection update a killed sync leaves the connection showing the
    // last success, and repeated crashes never count as failures.
    const rows = await tx.$queryRaw<
      { id: string; connectionId: string; isDryRun: boolean; finishedAt: Date }[]
    >`
      WITH closed AS (
        UPDATE sync_runs SET outcome = 'FAILED', "finishedAt" = now(),
          "errorClass" = ${INTERRUPTED_ERROR_CLASS}, message = ${INTERRUPTED_MESSAGE}
        WHERE outcome = 'RUNNING' AND ${where}
        RETURNING id, "connectionId", "isDryRun", counts, "startedAt", "finishedAt"
      ), failures AS (
        SELECT "connectionId", count(*)::int AS runs,
          (array_agg(counts ORDER BY "startedAt" DESC))[1] AS counts
        FROM closed WHERE NOT "isDryRun" GROUP BY "connectionId"
      ), recorded AS (
        UPDATE connections AS c SET "lastSyncAt" = now(), "lastSyncOutcome" = 'FAILED',
          "lastSyncMessage" = ${INTERRUPTED_MESSAGE}, "lastSyncMessageTexts" = NULL, "lastSyncCounts" = ${JSON.stringify(ZERO_COUNTS)}::jsonb || f.counts,
          "consecutiveFailures" = c."consecutiveFailures" + f.runs,
          "lastErrorClass" = ${INTERRUPTED_ERROR_CLASS}
        FROM failures AS f WHERE c.id = f."connectionId"
        RETURNING c.id
      )
      SELECT id, "connectionId", "isDryRun", "finishedAt" FROM closed ORDER BY "startedAt"`;
    // TRAP: docs/behaviour.md §14.5 — a run whose process died fails like any other: without the
    // event, feed readers and webhooks never hear of the failure.
    const failed = rows.filter((run) => !run.isDryRun);
    await appendInventoryEvents(
      tx,
      failed.map((run) =>
        syncFailedEvent(
          { connectionId: run.connectionId, syncRunId: run.id },
          { message: INTERRUPTED_MESSAGE, errorClass: INTERRUPTED_ERROR_CLASS, at: run.finishedAt },
        ),
      ),
    );
    return { count: rows.length, connectionIds: new Set(failed.map((run) => run.connectionId)) };
  });
  for (const connectionId of closed.connectionIds) onFeedAdvanced(connectionId);
  return closed.count;
}

/**
 * Called by a new holder: runs still RUNNING belong to a holder whose lease expired or whose
 * process died, so they are closed as FAILED instead of staying RUNNING for ever.
 */
export async function closeAbandonedRuns(
  prisma: PrismaClient,
  connectionId: string,
  onFeedAdvanced?: FeedAdvancedListener,
): Promise<number> {
  return closeRunsAsInterrupted(
    prisma,
    Prisma.sql`"connectionId" = ${connectionId}::uuid`,
    onFeedAdvanced,
  );
}

/**
 * Drops the leases whose holder's process is known dead ({@link isProcessKnownDead}: it ran on
 * this machine and is gone), so their runs can be closed now rather than once the lease expires.
 * Returns how many were dropped.
 */
export async function releaseDeadHolders(prisma: PrismaClient): Promise<number> {
  const leases = await prisma.$queryRaw<
    { connectionId: string; holder: string; holderProcess: string | null }[]
  >`
    SELECT "connectionId", holder, "holderProcess" FROM sync_leases
    WHERE "holderProcess" IS NOT NULL AND "expiresAt" >= now()`;
  let released = 0;
  for (const lease of leases.filter((l) => isProcessKnownDead(l.holderProcess))) {
    await releaseLease(prisma, lease.connectionId, lease.holder);
    released += 1;
  }
  return released;
}

/**
 * At start-up: closes the runs of a process that was killed mid-sync, so they do not show as
 * running until some later sync of their connection takes the lease. `isSoleProcess` (the
 * embedded database, whose data-directory lock admits one process) means every lease found is a
 * dead process's and is dropped; on a server the leases of holders known dead (killed processes
 * of this machine) are dropped, then only runs whose connection has no live lease are closed — a
 * live lease may be another replica's sync; if its holder is dead, the lease expires and the
 * abandoned-run sweep closes the run.
 */
export async function recoverInterruptedSyncs(
  prisma: PrismaClient,
  isSoleProcess: boolean,
  onFeedAdvanced?: FeedAdvancedListener,
): Promise<number> {
  // TRAP: docs/behaviour.md §8 — without this a killed sync stays RUNNING (and, embedded, its lease keeps the
  // next sync waiting a whole lease life after the restart).
  if (isSoleProcess) await prisma.$executeRaw`DELETE FROM sync_leases`;
  else await releaseDeadHolders(prisma);
  // One statement: a run visible to it was created after its lease was taken, so a run of a sync
  // starting meanwhile is always seen with its live lease and left alone.
  return closeRunsAsInterrupted(
    prisma,
    Prisma.sql`NOT EXISTS (
      SELECT 1 FROM sync_leases l
      WHERE l."connectionId" = sync_runs."connectionId" AND l."expiresAt" >= now())`,
    onFeedAdvanced,
  );
}
