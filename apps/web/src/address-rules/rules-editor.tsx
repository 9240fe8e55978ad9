import {
  PRIMARY_FAMILIES,
  PRIMARY_ORIGINS,
  type SuggestedInterfacePattern,
} from "@hyperlens/shared";
import { t } from "../i18n/i18n.ts";
import { FormField } from "../settings/form-field.tsx";
import { toggled } from "../webhooks/webhook-draft.ts";
import type { AddressRulesDraft } from "./rules-draft.ts";
import type { RuleListField, RulesProblems } from "./rules-problems.ts";
import { patternWhyText } from "./rules-text.ts";

type TextField = "otherInterfaces" | "permittedSubnets" | "ignoredSubnets" | "preferredSubnets";

/** The list each text field's problems are about. */
const LIST_OF: Record<TextField, RuleListField> = {
  otherInterfaces: "ignoredInterfaces",
  permittedSubnets: "permittedSubnets",
  ignoredSubnets: "ignoredSubnets",
  preferredSubnets: "preferredSubnets",
};

/** A choice of one value, as radio buttons under a legend. */
function Choice<T extends string>(props: {
  name: string;
  legend: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="capabilities">
      <legend>{props.legend}</legend>
      {props.options.map((option) => (
        <label key={option.value} className="check">
          <input
            type="radio"
            name={props.name}
            checked={props.value === option.value}
            onChange={() => props.onChange(option.value)}
          />{" "}
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The address rules as a form's fields (docs/behaviour.md §9.41): the suggested interface
 * patterns as toggles with why each is worth ignoring, other patterns and the subnets one a line,
 * link-local and unmatched-MAC addresses, and the primary address rule. Problems are shown
 * beside the field they are about.
 */
export function RulesEditor(props: {
  idPrefix: string;
  draft: AddressRulesDraft;
  suggestions: readonly SuggestedInterfacePattern[];
  problems: RulesProblems;
  onChange: (draft: AddressRulesDraft, changedList?: RuleListField) => void;
  onBlur: (list: RuleListField) => void;
}) {
  const { draft } = props;
  const id = (field: string) => `${props.idPrefix}-${field}`;
  const set = <K extends keyof AddressRulesDraft>(
    field: K,
    value: AddressRulesDraft[K],
    list?: RuleListField,
  ) => props.onChange({ ...draft, [field]: value }, list);
  const lines = (field: TextField, label: string, hint: string) => (
    <FormField
      id={id(field)}
      label={label}
      hint={hint}
      problems={props.problems[LIST_OF[field]] ?? []}
    >
      {(aria) => (
        <textarea
          {...aria}
          className="mono"
          rows={3}
          spellCheck={false}
          autoComplete="off"
          value={draft[field]}
          onChange={(e) => set(field, e.target.value, LIST_OF[field])}
          onBlur={() => props.onBlur(LIST_OF[field])}
        />
      )}
    </FormField>
  );

  return (
    <div className="rules-editor">
      <fieldset className="capabilities">
        <legend>{t("addressRules.interfaces")}</legend>
        <p className="muted">{t("addressRules.interfacesHint")}</p>
        <fieldset className="suggested-patterns">
          <legend>{t("addressRules.suggested")}</legend>
          {props.suggestions.map((suggestion) => (
            <label key={suggestion.pattern} className="check">
              <input
                type="checkbox"
                checked={draft.suggestedInterfaces.includes(suggestion.pattern)}
                onChange={(e) =>
                  set(
                    "suggestedInterfaces",
                    toggled(draft.suggestedInterfaces, suggestion.pattern, e.target.checked),
                    "ignoredInterfaces",
                  )
                }
              />{" "}
              <span className="mono">{suggestion.pattern}</span>{" "}
              <span className="muted">{patternWhyText(suggestion.pattern, suggestion.why)}</span>
            </label>
          ))}
        </fieldset>
        {lines(
          "otherInterfaces",
          t("addressRules.otherInterfaces"),
          t("addressRules.otherInterfacesHint"),
        )}
      </fieldset>
      {lines(
        "permittedSubnets",
        t("addressRules.permittedSubnets"),
        t("addressRules.permittedSubnetsHint"),
      )}
      {lines(
        "ignoredSubnets",
        t("addressRules.ignoredSubnets"),
        t("addressRules.ignoredSubnetsHint"),
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={draft.dropLinkLocal}
          onChange={(e) => set("dropLinkLocal", e.target.checked)}
        />{" "}
        {t("addressRules.dropLinkLocal")}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.keepUnmatchedMac}
          onChange={(e) => set("keepUnmatchedMac", e.target.checked)}
        />{" "}
        {t("addressRules.keepUnmatchedMac")}
      </label>
      <fieldset className="capabilities">
        <legend>{t("addressRules.primary")}</legend>
        <p className="muted">{t("addressRules.primaryHint")}</p>
        {lines(
          "preferredSubnets",
          t("addressRules.preferredSubnets"),
          t("addressRules.preferredSubnetsHint"),
        )}
        <Choice
          name={id("family")}
          legend={t("addressRules.family")}
          options={PRIMARY_FAMILIES.map((value) => ({
            value,
            label: t(`addressRules.familyChoice.${value}`),
          }))}
          value={draft.family}
          onChange={(value) => set("family", value)}
        />
        <Choice
          name={id("origin")}
          legend={t("addressRules.origin")}
          options={PRIMARY_ORIGINS.map((value) => ({
            value,
            label: t(`addressRules.originChoice.${value}`),
          }))}
          value={draft.origin}
          onChange={(value) => set("origin", value)}
        />
      </fieldset>
    </div>
  );
}
