// The sync lease: one row per connection in sync_leases, held by one replica while it syncs that
// connection. Plain SQL on the table, so PGlite and PostgreSQL behave the same (docs/architecture.md,
// "Leases").
import type { PrismaClient } from "@hyperlens/db";

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

/**
 * Called by a new holder: runs still RUNNING belong to a holder whose lease expired (a replica
 * that died or stalled), so they are closed as FAILED instead of staying RUNNING for ever.
 */
export async function closeAbandonedRuns(
  prisma: PrismaClient,
  connectionId: string,
): Promise<number> {
  return prisma.$executeRaw`
    UPDATE sync_runs SET outcome = 'FAILED', "finishedAt" = now(), "errorClass" = 'interrupted',
      message = 'Interrupted: the server running this sync stopped before it finished. Nothing was removed by it after its last committed step.'
    WHERE "connectionId" = ${connectionId}::uuid AND outcome = 'RUNNING'`;
}
