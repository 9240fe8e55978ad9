import type { SyncCounts } from "@hyperlens/shared";
import type { PlannedWrite, ReconcilePlan, VmChange } from "./plan.ts";

/** What a sync has planned and committed so far, from which its counts are told. */
export interface WriteTally {
  /** Guests seen in the lists that came back (known before any is planned). */
  seen: number;
  /** Seen guests whose rows already said it all. */
  unchanged: number;
  /** Writes committed, by why. */
  writes: Partial<Record<VmChange, number>>;
}

/** Adds a chunk of writes to the tally. */
export function tallyWrites(tally: WriteTally, writes: PlannedWrite[]): void {
  for (const write of writes) tally.writes[write.change] = (tally.writes[write.change] ?? 0) + 1;
}

/** The tally of a whole plan (a dry run). */
export function tallyOfPlan(plan: ReconcilePlan): WriteTally {
  const tally: WriteTally = { seen: plan.seen.length, unchanged: plan.unchangedCount, writes: {} };
  tallyWrites(tally, plan.writes);
  return tally;
}

/** The run's counts. */
export function countsOf(tally: WriteTally, removed: number, rowsWritten: number): SyncCounts {
  return {
    seen: tally.seen,
    added: tally.writes.added ?? 0,
    changed: tally.writes.changed ?? 0,
    restored: tally.writes.restored ?? 0,
    removed,
    unchanged: tally.unchanged,
    rowsWritten,
  };
}
