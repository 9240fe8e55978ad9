// The rules' own words in the viewer's language (docs/behaviour.md §9.41): why a suggested
// interface pattern is worth ignoring, and which rule rejected an address.
import { ADDRESS_REJECT_RULES, type AddressRejectRule } from "@hyperlens/shared";
import { hasMessage, t } from "../i18n/i18n.ts";

/**
 * Why a suggested pattern is worth ignoring, translated by the pattern; a pattern this web app
 * has no words for keeps the API's English reason.
 */
export function patternWhyText(pattern: string, apiWhy: string): string {
  const key = `addressRules.why.${pattern}`;
  return hasMessage(key) ? t(key) : apiWhy;
}

/** The rule that rejected an address, in words; a rule this web app does not know, as it is. */
export function rejectRuleText(rule: string): string {
  return (ADDRESS_REJECT_RULES as readonly string[]).includes(rule)
    ? t(`addressRules.rejectRule.${rule as AddressRejectRule}`)
    : rule;
}
