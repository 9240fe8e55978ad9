import { englishText, type ServerText, serverText } from "@hyperlens/shared";

/** Whether removals may proceed, and the message when they may not (docs/behaviour.md §3 "the guard"). */
export interface GuardDecision {
  /** Known (not removed) items in the lists that came back. */
  known: number;
  /** Of those, how many were seen in this sync. */
  present: number;
  allowsRemoval: boolean;
  /** Set when the guard fired. */
  message?: string;
  /** The message as a code and parameters (docs/behaviour.md §11.4); set with `message`. */
  text?: ServerText;
}

/**
 * The guard: when fewer than half of the known items in the lists that came back are present,
 * remove nothing. `noun` names the items in the message ("guests", "edge gateways").
 */
export function decideGuard(known: number, present: number, noun = "guests"): GuardDecision {
  // TRAP: docs/behaviour.md §3 — without it a source answering with an almost empty list wipes the inventory.
  if (known > 0 && present * 2 < known) {
    const text = serverText("syncGuardFired", { present, known, subject: noun.replace(/ /g, "_") });
    return { known, present, allowsRemoval: false, message: englishText(text), text };
  }
  return { known, present, allowsRemoval: true };
}
