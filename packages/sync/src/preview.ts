import type { JsonObject } from "@hyperlens/shared";
import type { PlannedWrite, ReconcilePlan } from "./plan.ts";

/** One guest in a dry-run preview. */
export interface PreviewEntry {
  externalId: string;
  name: string;
  listKey: string;
  /** { field: { from, to } } for changed, moved and restored guests; reason for removed ones. */
  changes?: JsonObject;
  reason?: string;
}

/** What a dry run would do (sync_runs.preview, docs/behaviour.md §10 "preview"). */
export interface SyncPreview {
  added: PreviewEntry[];
  changed: PreviewEntry[];
  restored: PreviewEntry[];
  removed: PreviewEntry[];
  /** Entries beyond PREVIEW_CAP per category are counted, not listed. */
  omitted: number;
}

/** How many guests each preview category lists. */
export const PREVIEW_CAP = 1000;

/** Builds the preview of a plan; `changesOf` gives each rewritten guest's field diff. */
export function buildPreview(
  plan: ReconcilePlan,
  changesOf: (write: PlannedWrite) => JsonObject,
): SyncPreview {
  const preview: SyncPreview = { added: [], changed: [], restored: [], removed: [], omitted: 0 };
  const push = (list: PreviewEntry[], entry: PreviewEntry) => {
    if (list.length < PREVIEW_CAP) list.push(entry);
    else preview.omitted += 1;
  };
  for (const write of plan.writes) {
    const base = { externalId: write.vm.externalId, name: write.vm.name, listKey: write.listKey };
    if (write.change === "added") push(preview.added, base);
    else if (write.change === "changed")
      push(preview.changed, { ...base, changes: changesOf(write) });
    else if (write.change === "restored") {
      push(preview.restored, { ...base, changes: changesOf(write) });
    }
  }
  for (const { stored, reason } of plan.removals) {
    push(preview.removed, {
      externalId: stored.externalId,
      name: stored.name,
      listKey: stored.listKey,
      reason,
    });
  }
  return preview;
}
