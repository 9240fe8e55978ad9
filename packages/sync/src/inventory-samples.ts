// The Servers page's history (docs/behaviour.md §9.50): what a connection held when a run that
// wrote finished, counted as the Servers page's figures count (templates and tombstones left out).
import type { RawSql } from "@hyperlens/db";

/**
 * Stores the connection's counts of VMs, containers and running guests, at `at`, inside the
 * caller's transaction: the sample commits with the run's end or not at all.
 */
export async function recordInventorySample(
  db: RawSql,
  sample: { connectionId: string; syncRunId: string; at: Date },
): Promise<void> {
  await db.$executeRawUnsafe(
    `INSERT INTO inventory_samples (id, "connectionId", "syncRunId", at, vms, containers, running)
     SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3::timestamptz,
       count(*) FILTER (WHERE kind = 'VM'),
       count(*) FILTER (WHERE kind = 'CONTAINER'),
       count(*) FILTER (WHERE state = 'RUNNING')
     FROM virtual_machines
     WHERE "connectionId" = $1::uuid AND "removedAt" IS NULL AND NOT "isTemplate"`,
    sample.connectionId,
    sample.syncRunId,
    sample.at,
  );
}
