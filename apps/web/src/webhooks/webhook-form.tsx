import { type FormEvent, type ReactNode, useState } from "react";
import { type FieldProblem, problemsByField } from "../graphql/validation-error.ts";
import { type MessageKey, t } from "../i18n/i18n.ts";
import { FormField } from "../settings/form-field.tsx";
import { type InventoryEventType, toggled, type WebhookDraft } from "./webhook-draft.ts";

/** Every event type an endpoint may be sent, with its label. */
export const EVENT_TYPE_LABELS: Record<InventoryEventType, MessageKey> = {
  VM_ADDED: "webhooks.eventType.VM_ADDED",
  VM_CHANGED: "webhooks.eventType.VM_CHANGED",
  VM_REMOVED: "webhooks.eventType.VM_REMOVED",
  VM_RESTORED: "webhooks.eventType.VM_RESTORED",
  IP_ADDED: "webhooks.eventType.IP_ADDED",
  IP_REMOVED: "webhooks.eventType.IP_REMOVED",
  EDGE_GATEWAY_ADDED: "webhooks.eventType.EDGE_GATEWAY_ADDED",
  EDGE_GATEWAY_REMOVED: "webhooks.eventType.EDGE_GATEWAY_REMOVED",
  SYNC_FAILED: "webhooks.eventType.SYNC_FAILED",
  SYNC_PARTIAL: "webhooks.eventType.SYNC_PARTIAL",
  GUARD_FIRED: "webhooks.eventType.GUARD_FIRED",
};
const EVENT_TYPES = Object.keys(EVENT_TYPE_LABELS) as InventoryEventType[];
const FIELDS = ["url", "description", "eventTypes", "connectionIds"];

/** A set of checkboxes with its problems beside it; none ticked means all. */
function CheckList<T extends string>(props: {
  id: string;
  legend: string;
  allLabel: string;
  options: readonly { value: T; label: string }[];
  value: readonly T[];
  problems: readonly string[];
  onChange: (value: T[]) => void;
}) {
  return (
    <fieldset
      className="capabilities"
      aria-describedby={props.problems.length ? `${props.id}-problem` : undefined}
    >
      <legend>{props.legend}</legend>
      <p className="muted">{props.allLabel}</p>
      {props.options.map((option) => (
        <label key={option.value} className="check">
          <input
            type="checkbox"
            checked={props.value.includes(option.value)}
            onChange={(e) => props.onChange(toggled(props.value, option.value, e.target.checked))}
          />{" "}
          {option.label}
        </label>
      ))}
      {props.problems.length > 0 && (
        <div id={`${props.id}-problem`} className="problem" role="alert">
          {props.problems.join(" ")}
        </div>
      )}
    </fieldset>
  );
}

/**
 * An endpoint's address, description, filter (event types, connections) and, when editing,
 * whether it is enabled. The server's problems are shown beside their field.
 */
export function WebhookForm(props: {
  idPrefix: string;
  label: string;
  className?: string;
  initial: WebhookDraft;
  connections: readonly { id: string; name: string }[];
  isEditing: boolean;
  submitLabel: string;
  /** Saves; answers the problems, or undefined when it was saved. */
  onSave: (draft: WebhookDraft) => Promise<readonly FieldProblem[] | undefined>;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  const [draft, setDraft] = useState(props.initial);
  const [problems, setProblems] = useState<Record<string, string[]>>({});
  const [isSaving, setSaving] = useState(false);
  const set = <K extends keyof WebhookDraft>(field: K, value: WebhookDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setProblems(({ [field]: _, ...rest }) => rest);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const found = await props.onSave(draft);
    setSaving(false);
    // Without connections to choose there is no list to show a connection problem beside.
    const shown = props.connections.length ? FIELDS : FIELDS.filter((f) => f !== "connectionIds");
    setProblems(found ? problemsByField(found, shown) : {});
    if (!found && !props.isEditing) setDraft(props.initial);
  };
  const id = (field: string) => `${props.idPrefix}-${field}`;

  return (
    <form onSubmit={submit} aria-label={props.label} className={props.className}>
      {props.children}
      <FormField
        id={id("url")}
        label={t("webhooks.url")}
        hint={t("webhooks.urlHint")}
        problems={problems.url ?? []}
      >
        {(aria) => (
          <input
            {...aria}
            type="url"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="https://receiver.example/hyperlens"
            value={draft.url}
            onChange={(e) => set("url", e.target.value)}
          />
        )}
      </FormField>
      <FormField
        id={id("description")}
        label={t("webhooks.description")}
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
      <CheckList
        id={id("eventTypes")}
        legend={t("webhooks.eventTypes")}
        allLabel={t("webhooks.eventTypesAll")}
        options={EVENT_TYPES.map((value) => ({ value, label: t(EVENT_TYPE_LABELS[value]) }))}
        value={draft.eventTypes}
        problems={problems.eventTypes ?? []}
        onChange={(value) => set("eventTypes", value)}
      />
      {props.connections.length > 0 && (
        <CheckList
          id={id("connectionIds")}
          legend={t("webhooks.connections")}
          allLabel={t("webhooks.connectionsAll")}
          options={props.connections.map((c) => ({ value: c.id, label: c.name }))}
          value={draft.connectionIds}
          problems={problems.connectionIds ?? []}
          onChange={(value) => set("connectionIds", value)}
        />
      )}
      {props.isEditing && (
        <label className="check">
          <input
            type="checkbox"
            checked={draft.isEnabled}
            onChange={(e) => set("isEnabled", e.target.checked)}
          />{" "}
          {t("webhooks.enabled")}
        </label>
      )}
      {problems.form && (
        <p role="alert" className="problem">
          {problems.form.join(" ")}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={isSaving}>
          {props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            {t("common.cancel")}
          </button>
        )}
      </div>
    </form>
  );
}
