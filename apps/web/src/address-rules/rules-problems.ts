// Problems with address rules, beside the editor field they are about (docs/behaviour.md §9.41):
// found here before anything is sent, or answered by the API as a ValidationError.
import { type AddressRules, addressRuleProblems, MAX_RULE_ENTRIES } from "@hyperlens/shared";
import type { FieldProblem } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";

/** The editor's lists a problem can be beside; `form` holds any other, so it is still read. */
export const RULE_LIST_FIELDS = [
  "ignoredInterfaces",
  "permittedSubnets",
  "ignoredSubnets",
  "preferredSubnets",
] as const;
export type RuleListField = (typeof RULE_LIST_FIELDS)[number];
export type RulesField = RuleListField | "form";

/** The problems per editor field. */
export type RulesProblems = Partial<Record<RulesField, string[]>>;

/**
 * The editor field and list position a problem's dotted path names: `permittedSubnets.2`,
 * `primary.preferredSubnets.0`, or the same under the input's name (`rules.ignoredSubnets.1`).
 */
export function placeOfProblem(path: string | null): { field: RulesField; index?: number } {
  const parts = (path ?? "").split(".");
  const at = parts.findIndex((part) => (RULE_LIST_FIELDS as readonly string[]).includes(part));
  if (at < 0) return { field: "form" };
  const index = parts[at + 1];
  return {
    field: parts[at] as RuleListField,
    ...(index !== undefined && /^\d+$/.test(index) ? { index: Number(index) } : {}),
  };
}

function listOf(rules: AddressRules, field: RuleListField): readonly string[] {
  return field === "preferredSubnets" ? rules.primary.preferredSubnets : rules[field];
}

function add(problems: RulesProblems, field: RulesField, message: string) {
  problems[field] = [...(problems[field] ?? []), message];
}

/**
 * What is wrong with rules before they are sent, in the viewer's language: the same checks the
 * API makes (addressRuleProblems), each told as the entry it is about.
 */
export function localProblems(rules: AddressRules): RulesProblems {
  const problems: RulesProblems = {};
  for (const problem of addressRuleProblems(rules)) {
    const { field, index } = placeOfProblem(problem.field);
    if (field === "form") {
      add(problems, field, problem.message);
      continue;
    }
    const list = listOf(rules, field);
    const value = index === undefined ? undefined : list[index];
    if (index === undefined || value === undefined)
      add(problems, field, t("addressRules.problem.tooMany", { max: MAX_RULE_ENTRIES }));
    else if (list.indexOf(value) < index)
      add(problems, field, t("addressRules.problem.duplicate", { value }));
    else if (field === "ignoredInterfaces")
      add(problems, field, t("addressRules.problem.pattern", { value }));
    else add(problems, field, t("addressRules.problem.subnet", { value }));
  }
  return problems;
}

/** The API's problems beside their fields, in its words. */
export function serverProblems(problems: readonly FieldProblem[]): RulesProblems {
  const byField: RulesProblems = {};
  for (const problem of problems)
    add(byField, placeOfProblem(problem.field).field, problem.message);
  return byField;
}

/** True when there is any problem at all. */
export function hasProblems(problems: RulesProblems): boolean {
  return Object.values(problems).some((list) => list.length > 0);
}
