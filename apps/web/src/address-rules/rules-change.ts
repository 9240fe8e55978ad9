// What saving would change, and whether it may be saved yet: a change is saved only after its
// preview has been seen (docs/behaviour.md §9.41).
import type { AddressRules } from "@hyperlens/shared";
import { rulesKey } from "./rules-draft.ts";

/**
 * Rules to store, or none: for the global rules, back to the shipped ones; for a connection,
 * back to the global ones.
 */
export type RulesChange = { rules: AddressRules } | { rules: null };

/** One text per change that acts alike. */
export function changeKey(change: RulesChange): string {
  return change.rules ? rulesKey(change.rules) : "fallback";
}

/**
 * Where a change stands: nothing to save, problems to fix first, a preview to look at first, or
 * ready to save.
 */
export type SaveReadiness = "UNCHANGED" | "INVALID" | "NEEDS_PREVIEW" | "READY";

/**
 * Whether `next` may be saved over `stored`: it must differ, have no problems, and be the very
 * change last previewed (an edit after the preview needs a new one).
 */
export function saveReadiness(options: {
  stored: RulesChange;
  next: RulesChange;
  hasProblems: boolean;
  previewedKey: string | undefined;
}): SaveReadiness {
  const key = changeKey(options.next);
  if (key === changeKey(options.stored)) return "UNCHANGED";
  if (options.hasProblems) return "INVALID";
  return options.previewedKey === key ? "READY" : "NEEDS_PREVIEW";
}
