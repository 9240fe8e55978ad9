// Which theme tone a status is drawn in. A skipped source is never "ok" (docs/behaviour.md §9).
import type { NeutralPowerState as PowerState, SyncOutcome } from "@hyperlens/shared";

/** A colour role from the theme tokens. */
export type Tone = "ok" | "warn" | "danger" | "info" | "neutral";

/** The tone of a sync outcome: only SUCCESS is ok; PARTIAL warns; FAILED is danger. */
export function outcomeTone(outcome: SyncOutcome | string | null | undefined): Tone {
  switch (outcome) {
    case "SUCCESS":
      return "ok";
    case "PARTIAL":
    case "CANCELLED":
      return "warn";
    case "FAILED":
      return "danger";
    case "RUNNING":
      return "info";
    default:
      return "neutral";
  }
}

/** The tone of a guest's power state. */
export function powerTone(state: PowerState): Tone {
  if (state === "RUNNING") return "ok";
  if (state === "PAUSED" || state === "SUSPENDED") return "warn";
  return "neutral";
}
