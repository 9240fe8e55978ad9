// The sync lease: one row per connection in sync_leases, held by one replica while it syncs that
// connection. Plain SQL on the table, so PGlite and PostgreSQL behave the same (docs/architecture.md,
// "Leases").
import { Prisma, type PrismaClient } from "@hyperlens/db";

/** Who holds a connection's lease, and the run it is doing (null while the run is being recorded). */
export interface LeaseHolder {
  holder: string;
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
): Promise<boolean> {
  // TRAP: SPEC §8 — one statement decides: the conflicting row is only taken over when expired, so
  // two replicas racing for a free or expired lease cannot both win.
  const rows = await prisma.$queryRaw<{ holder: string }[]>`
    INSERT INTO sync_leases ("connectionId", holder, "syncRunId", "acquiredAt", "expiresAt")
    VALUES (${connectionId}::uuid, ${holder}, NULL, now(), now() + ${ttlMs}::int * interval '1 millisecond')
    ON CONFLICT ("connectionId") DO UPDATE
      SET holder = EXCLUDED.holder, "syncRunId" = NULL, "acquiredAt" = EXCLUDED."acquiredAt",
          "expiresAt" = EXCLUDED."expiresAt"
      WHERE sync_leases."expiresAt" < now()
    RETURNING holder`;
  return rows.length === 1;
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
    SELECT holder, "syncRunId", "expiresAt" FROM sync_leases
    WHERE "connectionId" = ${connectionId}::uuid AND "expiresAt" >= now()`;
  return rows[0];
}

/** The errorClass of a run closed by someone else because its holder died. */
export const INTERRUPTED_ERROR_CLASS = "interrupted";

const INTERRUPTED = Prisma.sql`outcome = 'FAILED', "finishedAt" = now(), "errorClass" = ${INTERRUPTED_ERROR_CLASS},
  message = 'Interrupted: the server running this sync stopped before it finished. Nothing was removed by it after its last committed step.'`;

/**
 * Called by a new holder: runs still RUNNING belong to a holder whose lease expired (a replica
 * that died or stalled), so they are closed as FAILED instead of staying RUNNING for ever.
 */
export async function closeAbandonedRuns(
  prisma: PrismaClient,
  connectionId: string,
): Promise<number> {
  return prisma.$executeRaw`
    UPDATE sync_runs SET ${INTERRUPTED}
    WHERE "connectionId" = ${connectionId}::uuid AND outcome = 'RUNNING'`;
}

/**
 * At start-up: closes the runs of a process that was killed mid-sync, so they do not show as
 * running until some later sync of their connection takes the lease. `isSoleProcess` (the
 * embedded database, whose data-directory lock admits one process) means every lease found is a
 * dead process's and is dropped; on a server only runs whose connection has no live lease are
 * closed — a live lease may be another replica's sync; if its holder is dead, the lease expires
 * and the abandoned-run sweep closes the run.
 */
export async function recoverInterruptedSyncs(
  prisma: PrismaClient,
  isSoleProcess: boolean,
): Promise<number> {
  // TRAP: SPEC §8 — without this a killed sync stays RUNNING (and, embedded, its lease keeps the
  // next sync waiting a whole lease life after the restart).
  if (isSoleProcess) await prisma.$executeRaw`DELETE FROM sync_leases`;
  // One statement: a run visible to it was created after its lease was taken, so a run of a sync
  // starting meanwhile is always seen with its live lease and left alone.
  return prisma.$executeRaw`
    UPDATE sync_runs SET ${INTERRUPTED}
    WHERE outcome = 'RUNNING' AND NOT EXISTS (
      SELECT 1 FROM sync_leases l
      WHERE l."connectionId" = sync_runs."connectionId" AND l."expiresAt" >= now())`;
}
