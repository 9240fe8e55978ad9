// What the API's preview of a rules change says (docs/behaviour.md §9.41), as the page shows it.
import type { ServerMessage } from "../i18n/server-text.ts";

/** The preview of a rules change: totals, and the guests that would change. */
export interface RulesPreview {
  vmCount: number;
  changedVmCount: number;
  addedCount: number;
  droppedCount: number;
  primaryChangedCount: number;
  isTruncated: boolean;
  changes: readonly RulesPreviewChange[];
}

/** One guest that would change: addresses it gains, loses (and by which rule), its primary. */
export interface RulesPreviewChange {
  vm: { id: string; name: string; connection: { name: string } };
  added: readonly string[];
  /** Addresses it loses, the rule and why (as a code where the server has one, §11.4). */
  dropped: readonly {
    address: string;
    rule: string;
    reason: string;
    reasonText: ServerMessage | null;
  }[];
  primaryBefore: string | null;
  primaryAfter: string | null;
}

/** How many changed guests the preview counts but does not list. */
export function unlistedChangeCount(preview: RulesPreview): number {
  return preview.isTruncated ? Math.max(0, preview.changedVmCount - preview.changes.length) : 0;
}
