// Change-feed events are kept HYPERLENS_FEED_RETENTION_DAYS (docs/behaviour.md §14.8): the feed is
// for integrators catching up, not the guests' history (vm_events and tombstones keep that). The
// Servers page's history samples (docs/behaviour.md §9.50) are kept as long, by the same sweep.
import type { PrismaClient } from "@hyperlens/db";
import type { AppServices } from "../context.ts";
import { type PeriodicSweep, startPeriodicSweep } from "./periodic-sweep.ts";

/** How often the sweep runs: retention is counted in days, so hourly is precise enough. */
export const FEED_RETENTION_SWEEP_MS = 3_600_000;

/** Rows deleted per statement, so one sweep of a large backlog never holds a long lock. */
const DELETE_BATCH = 10_000;

/** Runs one batched DELETE until a batch comes back short; returns the rows deleted in all. */
async function deleteInBatches(deleteBatch: () => Promise<number>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await deleteBatch();
    deleted += batch;
    if (batch < DELETE_BATCH) return deleted;
  }
}

/** Deletes events older than `retentionMs` before `now`; returns how many. */
export async function deleteExpiredFeedEvents(
  prisma: PrismaClient,
  retentionMs: number,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs);
  return deleteInBatches(
    () => prisma.$executeRaw`
      DELETE FROM inventory_events WHERE "sequence" IN (
        SELECT "sequence" FROM inventory_events WHERE "at" < ${cutoff}
        ORDER BY "sequence" LIMIT ${DELETE_BATCH})`,
  );
}

/** Starts deleting expired events every {@link FEED_RETENTION_SWEEP_MS} (and once at start). */
export function startFeedRetentionSweep(
  services: Pick<AppServices, "prisma" | "logger">,
  retentionMs: number,
): PeriodicSweep {
  const sweep = startPeriodicSweep(
    services,
    FEED_RETENTION_SWEEP_MS,
    async () => {
      const deleted = await deleteExpiredFeedEvents(services.prisma, retentionMs);
      if (deleted) services.logger.info({ events: deleted }, "Deleted expired change-feed events");
      const samples = await deleteExpiredSamples(services.prisma, retentionMs);
      if (samples) services.logger.info({ samples }, "Deleted expired inventory samples");
      return deleted + samples;
    },
    "Could not delete expired change-feed events",
  );
  void sweep.sweep();
  return sweep;
}

/** Deletes inventory samples older than `retentionMs` before `now`; returns how many. */
export async function deleteExpiredSamples(
  prisma: PrismaClient,
  retentionMs: number,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs);
  return deleteInBatches(
    () => prisma.$executeRaw`
      DELETE FROM inventory_samples WHERE id IN (
        SELECT id FROM inventory_samples WHERE "at" < ${cutoff} LIMIT ${DELETE_BATCH})`,
  );
}
