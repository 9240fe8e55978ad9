import type { AddressRules, SuggestedInterfacePattern } from "@hyperlens/shared";
import { type FormEvent, type ReactNode, useState } from "react";
import type { FieldProblem } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { PreviewTable } from "./preview-table.tsx";
import { changeKey, type RulesChange, saveReadiness } from "./rules-change.ts";
import { draftOf, rulesOfDraft } from "./rules-draft.ts";
import { RulesEditor } from "./rules-editor.tsx";
import type { RulesPreview } from "./rules-preview.ts";
import {
  hasProblems,
  localProblems,
  RULE_LIST_FIELDS,
  type RuleListField,
  type RulesProblems,
  serverProblems,
} from "./rules-problems.ts";

/** What the API answered a preview: the preview, or problems with the rules. */
export type PreviewAnswer = { preview: RulesPreview } | { problems: readonly FieldProblem[] };

/**
 * Edits rules, previews a change and saves it once its preview was seen (docs/behaviour.md
 * §9.41). `mode` "own" edits rules to store; "fallback" proposes storing none (the shipped rules,
 * or for a connection the global ones), explained by `fallbackText`.
 */
export function RulesWorkbench(props: {
  idPrefix: string;
  label: string;
  suggestions: readonly SuggestedInterfacePattern[];
  /** What is stored now. */
  stored: RulesChange;
  /** The rules the editor starts from: those in effect now. */
  startRules: AddressRules;
  mode: "own" | "fallback";
  fallbackText: string;
  saveLabel: string;
  preview: (change: RulesChange) => Promise<PreviewAnswer>;
  /** Saves; answers the problems, or undefined when it was saved. */
  save: (change: RulesChange) => Promise<readonly FieldProblem[] | undefined>;
  children?: ReactNode;
}) {
  const patterns = props.suggestions.map((s) => s.pattern);
  const [draft, setDraft] = useState(() => draftOf(props.startRules, patterns));
  const [touched, setTouched] = useState<readonly RuleListField[]>([]);
  const [answered, setAnswered] = useState<RulesProblems>({});
  const [previewed, setPreviewed] = useState<{ key: string; preview: RulesPreview }>();
  const [isBusy, setBusy] = useState(false);

  const next: RulesChange =
    props.mode === "own" ? { rules: rulesOfDraft(draft, patterns) } : { rules: null };
  const local = next.rules ? localProblems(next.rules) : {};
  const readiness = saveReadiness({
    stored: props.stored,
    next,
    hasProblems: hasProblems(local),
    previewedKey: previewed?.key,
  });
  const shown: RulesProblems = {};
  for (const field of [...RULE_LIST_FIELDS, "form"] as const) {
    const own = field !== "form" && touched.includes(field) ? (local[field] ?? []) : [];
    const list = [...own, ...(answered[field] ?? [])];
    if (list.length) shown[field] = list;
  }
  const currentPreview = previewed?.key === changeKey(next) ? previewed.preview : undefined;

  const runPreview = async () => {
    setTouched(RULE_LIST_FIELDS);
    if (hasProblems(local)) return;
    setBusy(true);
    const answer = await props.preview(next);
    setBusy(false);
    if ("problems" in answer) {
      setAnswered(serverProblems(answer.problems));
      setPreviewed(undefined);
    } else {
      setAnswered({});
      setPreviewed({ key: changeKey(next), preview: answer.preview });
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (readiness !== "READY") return;
    setBusy(true);
    const problems = await props.save(next);
    setBusy(false);
    if (problems) setAnswered(serverProblems(problems));
  };

  return (
    <form className="rules-workbench" aria-label={props.label} onSubmit={submit} noValidate>
      {props.children}
      {props.mode === "own" ? (
        <RulesEditor
          idPrefix={props.idPrefix}
          draft={draft}
          suggestions={props.suggestions}
          problems={shown}
          onChange={(changed, list) => {
            setDraft(changed);
            if (list) setAnswered(({ [list]: _, ...rest }) => rest);
          }}
          onBlur={(list) => setTouched((fields) => [...new Set([...fields, list])])}
        />
      ) : (
        <p>{props.fallbackText}</p>
      )}
      {shown.form && (
        <p role="alert" className="problem">
          {shown.form.join(" ")}
        </p>
      )}
      <div className="actions">
        <button type="button" disabled={isBusy} onClick={() => void runPreview()}>
          {t("addressRules.preview")}
        </button>
        <button type="submit" className="primary" disabled={isBusy || readiness !== "READY"}>
          {props.saveLabel}
        </button>
      </div>
      <p className="muted" aria-live="polite">
        {isBusy ? t("common.loading") : t(`addressRules.readiness.${readiness}`)}
      </p>
      {currentPreview && (
        <PreviewTable preview={currentPreview} label={t("addressRules.previewTitle")} />
      )}
    </form>
  );
}
