import type { JsonObject, JsonValue, VmEventType } from "@hyperlens/shared";
import { diffVm, summarizeNeutralVm, type VmDiff, type VmSummary } from "./diff.ts";
import type { PlannedWrite } from "./plan.ts";
import type { PreviousVm } from "./previous.ts";

/** A vm_events row to insert. */
export interface PlannedEvent {
  type: VmEventType;
  changes: JsonObject;
}

const withoutAgentIps = (summary: VmSummary): VmSummary => ({
  ...summary,
  ips: summary.ips.filter((line) => !line.includes("(AGENT")),
});

/** The diff of a rewritten guest against its stored version, if there is one. */
export function diffWrite(write: PlannedWrite, previous: PreviousVm | undefined): VmDiff {
  if (!previous) return { moved: {}, changed: {} };
  let before = previous.summary;
  let after = summarizeNeutralVm(write.vm, write.listKey);
  // Silent agent: its addresses are kept as last-known, so they did not "change".
  if (!write.vm.ipsFromGuestAreLive) {
    before = withoutAgentIps(before);
    after = withoutAgentIps(after);
  }
  return diffVm(before, after);
}

const asJson = (diff: Record<string, { from: JsonValue; to: JsonValue }>): JsonObject => diff;

/** The history events of one written guest (docs/behaviour.md §10 "history, not amnesia"). */
export function eventsOfWrite(write: PlannedWrite, diff: VmDiff): PlannedEvent[] {
  switch (write.change) {
    case "added":
      return [{ type: "APPEARED", changes: { listKey: write.listKey } }];
    case "restored":
      return [{ type: "RESTORED", changes: asJson({ ...diff.moved, ...diff.changed }) }];
    case "changed": {
      const events: PlannedEvent[] = [];
      if (Object.keys(diff.moved).length)
        events.push({ type: "MOVED", changes: asJson(diff.moved) });
      if (Object.keys(diff.changed).length) {
        events.push({ type: "CHANGED", changes: asJson(diff.changed) });
      }
      return events;
    }
    case "reconfirmed":
      return [];
  }
}
