import { type FormEvent, type ReactNode, useState } from "react";
import { type FieldProblem, problemsByField } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { FormField } from "../settings/form-field.tsx";

/** A group's name and description as the form edits them. */
export interface GroupDraft {
  name: string;
  description: string;
}

/** What saving answered: nothing when it succeeded, else the problems (per field where known). */
export type GroupSaveProblems = readonly FieldProblem[] | undefined;

/**
 * The name and description of a connection group, creating one or editing one; the server's
 * problems (a duplicate name, too long a description) are shown next to their field.
 */
export function GroupForm(props: {
  idPrefix: string;
  label: string;
  className?: string;
  initial: GroupDraft;
  submitLabel: string;
  onSave: (draft: GroupDraft) => Promise<GroupSaveProblems>;
  /** After a successful save; a creating form starts empty again. */
  isReset?: boolean;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  const [draft, setDraft] = useState(props.initial);
  const [problems, setProblems] = useState<Record<string, string[]>>({});
  const [isSaving, setSaving] = useState(false);

  const set = (field: keyof GroupDraft, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setProblems(({ [field]: _, ...rest }) => rest);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const found = await props.onSave(draft);
    setSaving(false);
    if (found) {
      setProblems(problemsByField(found, ["name", "description"]));
      return;
    }
    setProblems({});
    if (props.isReset) setDraft(props.initial);
  };

  return (
    <form onSubmit={submit} aria-label={props.label} className={props.className}>
      {props.children}
      <FormField
        id={`${props.idPrefix}-name`}
        label={t("groups.name")}
        problems={problems.name ?? []}
      >
        {(aria) => (
          <input
            {...aria}
            required
            autoComplete="off"
            value={draft.name}
            onChange={(e) => set("name", e.target.value)}
          />
        )}
      </FormField>
      <FormField
        id={`${props.idPrefix}-description`}
        label={t("groups.description")}
        problems={problems.description ?? []}
      >
        {(aria) => (
          <input
            {...aria}
            autoComplete="off"
            value={draft.description}
            onChange={(e) => set("description", e.target.value)}
          />
        )}
      </FormField>
      {problems.form && (
        <p role="alert" className="problem">
          {problems.form.join(" ")}
        </p>
      )}
      <button type="submit" className="primary" disabled={isSaving}>
        {props.submitLabel}
      </button>
      {props.onCancel && (
        <>
          {" "}
          <button type="button" onClick={props.onCancel}>
            {t("common.cancel")}
          </button>
        </>
      )}
    </form>
  );
}
