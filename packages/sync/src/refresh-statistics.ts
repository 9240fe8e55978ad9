// After a sync that rewrote a good part of the inventory, the planner's statistics describe the
// tables as they were: the list then scans where it should seek, and index-only scans still visit
// every page the sync touched. PGlite has no autovacuum at all, and a server's runs only after a
// delay, so the engine tidies the tables it wrote itself — the way autovacuum would, by the same
// measure (50 rows plus a tenth of the table).
import type { RawSql } from "@hyperlens/db";

const INVENTORY_TABLES = ["virtual_machines", "nics", "ip_addresses", "disks", "vm_events"];

/** Whether `rewritten` guests are enough of a table of `liveRows` (-1: never analysed) to refresh. */
export function needsFreshStatistics(rewritten: number, liveRows: number): boolean {
  return rewritten >= 50 + 0.1 * Math.max(liveRows, 0);
}

/**
 * Vacuums and analyses the inventory tables when `rewritten` guests (added, changed, restored or
 * removed) are enough to have made their statistics stale. Runs outside any transaction; never
 * fails a sync, whose writes are already committed.
 */
export async function refreshStatistics(db: RawSql, rewritten: number): Promise<boolean> {
  try {
    const [table] = await db.$queryRawUnsafe<{ rows: number }[]>(
      `SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'virtual_machines'::regclass`,
    );
    if (!needsFreshStatistics(rewritten, table?.rows ?? -1)) return false;
    // SKIP_LOCKED: a sync of another connection tidying the same tables already does the work.
    await db.$executeRawUnsafe(`VACUUM (ANALYZE, SKIP_LOCKED) ${INVENTORY_TABLES.join(", ")}`);
    return true;
  } catch {
    // Statistics only make later reads faster; the sync's result stands without them.
    return false;
  }
}
