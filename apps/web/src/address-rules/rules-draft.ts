// The address rules editor's fields as typed, and the rules the API is sent from them
// (docs/behaviour.md §9.41, §10.9).
import type { AddressRules, PrimaryFamily, PrimaryOrigin } from "@hyperlens/shared";

/**
 * The editor's fields. The suggested interface patterns are toggles; every other list is text,
 * one entry a line, so a pasted list of subnets is one paste.
 */
export interface AddressRulesDraft {
  /** The suggested interface patterns that are ticked. */
  suggestedInterfaces: string[];
  /** Further interface patterns, one a line. */
  otherInterfaces: string;
  permittedSubnets: string;
  ignoredSubnets: string;
  /** In order of preference: the first line wins. */
  preferredSubnets: string;
  dropLinkLocal: boolean;
  keepUnmatchedMac: boolean;
  family: PrimaryFamily;
  origin: PrimaryOrigin;
}

/**
 * Interface patterns typed one a line, without blank lines or the spaces around each. A line is
 * one pattern whole: Windows names interfaces with spaces ("Loopback Pseudo-Interface 1").
 */
export function patternsOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Subnets typed one a line; commas and spaces separate them too, as no subnet holds either. */
export function subnetsOf(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** The editor's fields for rules; `suggested` are the patterns shown as toggles. */
export function draftOf(rules: AddressRules, suggested: readonly string[]): AddressRulesDraft {
  return {
    suggestedInterfaces: rules.ignoredInterfaces.filter((p) => suggested.includes(p)),
    otherInterfaces: rules.ignoredInterfaces.filter((p) => !suggested.includes(p)).join("\n"),
    permittedSubnets: rules.permittedSubnets.join("\n"),
    ignoredSubnets: rules.ignoredSubnets.join("\n"),
    preferredSubnets: rules.primary.preferredSubnets.join("\n"),
    dropLinkLocal: rules.dropLinkLocal,
    keepUnmatchedMac: rules.keepUnmatchedMac,
    family: rules.primary.family,
    origin: rules.primary.origin,
  };
}

/**
 * The rules the draft says, as the API takes them: the ticked suggestions in the order offered,
 * then the other patterns as typed.
 */
export function rulesOfDraft(draft: AddressRulesDraft, suggested: readonly string[]): AddressRules {
  return {
    ignoredInterfaces: [
      ...suggested.filter((p) => draft.suggestedInterfaces.includes(p)),
      ...patternsOf(draft.otherInterfaces),
    ],
    permittedSubnets: subnetsOf(draft.permittedSubnets),
    ignoredSubnets: subnetsOf(draft.ignoredSubnets),
    dropLinkLocal: draft.dropLinkLocal,
    keepUnmatchedMac: draft.keepUnmatchedMac,
    primary: {
      preferredSubnets: subnetsOf(draft.preferredSubnets),
      family: draft.family,
      origin: draft.origin,
    },
  };
}

/**
 * One text for rules that act alike: the interface patterns and the ignored and permitted
 * subnets are sets, so their order does not count; the preferred subnets' order does.
 */
export function rulesKey(rules: AddressRules): string {
  const sorted = (list: readonly string[]) => [...list].sort();
  return JSON.stringify([
    sorted(rules.ignoredInterfaces),
    sorted(rules.permittedSubnets),
    sorted(rules.ignoredSubnets),
    rules.dropLinkLocal,
    rules.keepUnmatchedMac,
    rules.primary.preferredSubnets,
    rules.primary.family,
    rules.primary.origin,
  ]);
}
