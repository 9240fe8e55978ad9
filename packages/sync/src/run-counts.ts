// A run's counts as its writes commit: stored in the same transaction as each committed step, so a
// run whose process is killed says what landed, not zero (issue 20).
import type { RawSql } from "@hyperlens/db";
import type { SyncCounts } from "@hyperlens/shared";

/** Stores `counts` on the run inside the caller's transaction; committed with the writes they count. */
export async function recordRunCounts(
  db: RawSql,
  syncRunId: string,
  counts: SyncCounts,
): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE sync_runs SET counts = $1::jsonb WHERE id = $2::uuid`,
    JSON.stringify(counts),
    syncRunId,
  );
}
