import { type FormEvent, useState } from "react";
import { type FieldProblem, problemsByField } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { FormField } from "../settings/form-field.tsx";

/**
 * A saved view's name, for saving the current view or renaming one; what the server finds wrong
 * (a name taken, a query string refused) is shown beside the name.
 */
export function ViewNameForm(props: {
  id: string;
  label: string;
  initial: string;
  submitLabel: string;
  onSave: (name: string) => Promise<readonly FieldProblem[] | undefined>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(props.initial);
  const [problems, setProblems] = useState<string[]>([]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = await props.onSave(name);
    const byField = found ? problemsByField(found, ["name"]) : {};
    // The query string is not a field here: its problem is shown on the name, where the reader is.
    setProblems(found ? [...(byField.name ?? []), ...(byField.form ?? [])] : []);
    if (!found) setName(props.initial);
  };
  return (
    <form onSubmit={submit} aria-label={props.label} className="view-name-form">
      <FormField id={props.id} label={t("views.name")} problems={problems}>
        {(aria) => (
          <input
            {...aria}
            required
            autoComplete="off"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setProblems([]);
            }}
          />
        )}
      </FormField>
      <button type="submit">{props.submitLabel}</button>
      {props.onCancel && (
        <button type="button" onClick={props.onCancel}>
          {t("common.cancel")}
        </button>
      )}
    </form>
  );
}
