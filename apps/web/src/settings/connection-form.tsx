import type { ConnectionKind } from "@hyperlens/shared";
import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { GroupPicker } from "../account/group-picker.tsx";
import { GROUP_CHOICES } from "../account/user-grants-editor.tsx";
import { graphql } from "../graphql/graphql.ts";
import {
  problemsByField,
  problemsOfAnswer,
  ValidationErrorFields,
} from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { addressHint, connectionExample } from "./connection-examples.ts";
import { type Connection, ConnectionFields } from "./connection-fields.ts";
import {
  type ConnectionDraft,
  type DraftProblems,
  inputFromDraft,
  keepsStoredSecret,
  REQUEST_LIMIT_FIELDS,
  SYNC_INTERVAL_SECONDS,
  validateDraft,
} from "./connection-validation.ts";
import { FormField } from "./form-field.tsx";
import { TestOutcome, type TestOutcomeState } from "./test-outcome.tsx";

const SAVE_CONNECTION = {
  PROXMOX: graphql(
    `
    mutation SaveProxmox($input: ProxmoxConnectionInput!) {
      result: saveProxmoxConnection(input: $input) {
        __typename
        ...ValidationErrorFields
        ... on MutationSaveProxmoxConnectionSuccess { data { ...ConnectionFields } }
      }
    }
  `,
    [ValidationErrorFields, ConnectionFields],
  ),
  VCD: graphql(
    `
    mutation SaveVcd($input: VcdConnectionInput!) {
      result: saveVcdConnection(input: $input) {
        __typename
        ...ValidationErrorFields
        ... on MutationSaveVcdConnectionSuccess { data { ...ConnectionFields } }
      }
    }
  `,
    [ValidationErrorFields, ConnectionFields],
  ),
  VCENTER: graphql(
    `
    mutation SaveVcenter($input: VcenterConnectionInput!) {
      result: saveVcenterConnection(input: $input) {
        __typename
        ...ValidationErrorFields
        ... on MutationSaveVcenterConnectionSuccess { data { ...ConnectionFields } }
      }
    }
  `,
    [ValidationErrorFields, ConnectionFields],
  ),
} as const;

/** Test before saving: the kind's test of unsaved input, which takes what its save takes. */
const TEST_UNSAVED = {
  PROXMOX: graphql(
    `
    mutation TestUnsavedProxmox($input: ProxmoxConnectionInput!) {
      result: testUnsavedProxmoxConnection(input: $input) {
        __typename
        ...ValidationErrorFields
        ... on MutationTestUnsavedProxmoxConnectionSuccess { data { ok errorClass message messageText { code params message } } }
      }
    }
  `,
    [ValidationErrorFields],
  ),
  VCD: graphql(
    `
    mutation TestUnsavedVcd($input: VcdConnectionInput!) {
      result: testUnsavedVcdConnection(input: $input) {
        __typename
        ...ValidationErrorFields
        ... on MutationTestUnsavedVcdConnectionSuccess { data { ok errorClass message messageText { code params message } } }
      }
    }
  `,
    [ValidationErrorFields],
  ),
  VCENTER: graphql(
    `
    mutation TestUnsavedVcenter($input: VcenterConnectionInput!) {
      result: testUnsavedVcenterConnection(input: $input) {
        __typename
        ...ValidationErrorFields
        ... on MutationTestUnsavedVcenterConnectionSuccess { data { ok errorClass message messageText { code params message } } }
      }
    }
  `,
    [ValidationErrorFields],
  ),
} as const;

/** Every field the form checks, marked touched when it is sent (saved or tested). */
const CHECKED_FIELDS = {
  name: true,
  url: true,
  username: true,
  secret: true,
  syncIntervalSeconds: true,
  maxConcurrentRequests: true,
  maxRequestsPerNode: true,
} as const;

const SHOWN_FIELDS = [
  "name",
  "url",
  "username",
  "tokenId",
  "secret",
  "caPem",
  "syncIntervalSeconds",
  ...REQUEST_LIMIT_FIELDS,
  "lightPollSeconds",
];

/** The light-poll interval a new connection starts with (the server's default). */
const DEFAULT_LIGHT_POLL_SECONDS = 15;

function draftOf(kind: ConnectionKind, connection: Connection | undefined): ConnectionDraft {
  // A new Proxmox connection shows the defaults the server applies (docs/behaviour.md §3.7).
  const limits = {
    maxConcurrentRequests: String(connection?.maxConcurrentRequests ?? 16),
    maxRequestsPerNode: String(connection?.maxRequestsPerNode ?? 2),
  };
  return {
    ...limits,
    loadedLimits: limits,
    id: connection?.id,
    kind,
    name: connection?.name ?? "",
    url: connection?.url ?? "",
    username: connection?.username ?? "",
    tokenId: connection?.tokenId ?? "",
    secret: "",
    caPem: connection?.caPem ?? "",
    verifyTls: connection?.verifyTls ?? true,
    isProvider: connection?.isProvider ?? false,
    isActive: connection?.isActive ?? true,
    lightPollSeconds: String(connection?.lightPollSeconds ?? DEFAULT_LIGHT_POLL_SECONDS),
    syncIntervalSeconds: String(connection?.syncIntervalSeconds ?? SYNC_INTERVAL_SECONDS.default),
    storedSecretFor: connection?.hasSecret
      ? {
          url: connection.url ?? "",
          username: connection.username ?? "",
          tokenId: connection.tokenId ?? "",
          verifyTls: connection.verifyTls ?? true,
          caPem: connection.caPem ?? "",
        }
      : null,
  };
}

/** What the secret field says about a stored secret: kept if left blank, or needed again. */
function secretHint(draft: ConnectionDraft, isSecretKept: boolean): string | undefined {
  if (isSecretKept) return `${t("settings.hint.secretStored")} ${t("settings.hint.secretTarget")}`;
  return draft.storedSecretFor ? t("settings.hint.secretAgain") : undefined;
}

/** Add or edit a connection of one kind. The secret is never shown; left blank it is kept. */
export function ConnectionForm(props: {
  kind: ConnectionKind;
  connection?: Connection;
  onSaved: (connection: Connection) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(props.kind, props.connection));
  const [touched, setTouched] = useState<Partial<Record<keyof ConnectionDraft, boolean>>>({});
  const [serverProblems, setServerProblems] = useState<Record<string, string[]>>({});
  const [, save] = useMutation(SAVE_CONNECTION[props.kind]);
  const [, testUnsaved] = useMutation(TEST_UNSAVED[props.kind]);
  const [testOutcome, setTestOutcome] = useState<TestOutcomeState>();
  const [isSaving, setSaving] = useState(false);
  const [{ data: groupChoices }] = useQuery({ query: GROUP_CHOICES });
  const groups = groupChoices?.connectionGroups ?? [];
  const [groupIds, setGroupIds] = useState(() => props.connection?.groups.map((g) => g.id) ?? []);
  const own: DraftProblems = validateDraft(draft);
  const isSecretKept = keepsStoredSecret(draft);
  const prefix = `connection-${props.kind.toLowerCase()}`;

  const problemsOf = (field: keyof ConnectionDraft) => {
    const key = own[field];
    return [...(touched[field] && key ? [t(key)] : []), ...(serverProblems[field] ?? [])];
  };
  const set = <K extends keyof ConnectionDraft>(field: K, value: ConnectionDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    // A Test answered for other values no longer holds.
    setTestOutcome(undefined);
    setServerProblems(({ [field]: _, ...rest }) => rest);
  };
  const text = (
    field:
      | "name"
      | "url"
      | "username"
      | "tokenId"
      | "lightPollSeconds"
      | "syncIntervalSeconds"
      | (typeof REQUEST_LIMIT_FIELDS)[number],
    label: string,
    hint?: string,
    placeholder?: string,
  ) => (
    <FormField id={`${prefix}-${field}`} label={label} hint={hint} problems={problemsOf(field)}>
      {(aria) => (
        <input
          {...aria}
          value={draft[field]}
          placeholder={placeholder}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => set(field, e.target.value)}
          onBlur={() => setTouched((s) => ({ ...s, [field]: true }))}
        />
      )}
    </FormField>
  );

  const runTest = async () => {
    setTouched(CHECKED_FIELDS);
    if (Object.keys(own).length > 0) return;
    setTestOutcome({ pending: true });
    const result = await testUnsaved({ input: inputFromDraft(draft) });
    const outcome = result.data?.result;
    const found = problemsOfAnswer(result);
    setServerProblems(found ? problemsByField(found, SHOWN_FIELDS) : {});
    setTestOutcome(!found && outcome && "data" in outcome ? outcome.data : undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(CHECKED_FIELDS);
    if (Object.keys(own).length > 0) return;
    setSaving(true);
    // Without any group to choose there is nothing to set: the connection's groups stay.
    const input = { ...inputFromDraft(draft), ...(groups.length ? { groupIds } : {}) };
    const result = await save({ input });
    setSaving(false);
    const outcome = result.data?.result;
    const found = problemsOfAnswer(result);
    setServerProblems(found ? problemsByField(found, SHOWN_FIELDS) : {});
    if (!found && outcome && "data" in outcome) props.onSaved(outcome.data);
  };

  const kindLabel = t(`source.${props.kind}`);
  return (
    <form
      className="connection-form"
      onSubmit={submit}
      noValidate
      aria-label={
        props.connection
          ? t("settings.editTitle", { name: props.connection.name })
          : t("settings.addTitle", { kind: kindLabel })
      }
    >
      <h3>
        {props.connection
          ? t("settings.editTitle", { name: props.connection.name })
          : t("settings.addTitle", { kind: kindLabel })}
      </h3>
      {text("name", t("settings.field.name"))}
      {text(
        "url",
        t("settings.field.url"),
        addressHint(props.kind),
        connectionExample(props.kind).url,
      )}
      {text(
        "username",
        t("settings.field.username"),
        props.kind === "VCD"
          ? t("settings.hint.vcdUsername")
          : props.kind === "PROXMOX"
            ? t("settings.hint.pveUsername")
            : undefined,
        connectionExample(props.kind).username,
      )}
      {props.kind === "PROXMOX" &&
        text("tokenId", t("settings.field.tokenId"), t("settings.hint.tokenId"))}
      <FormField
        id={`${prefix}-secret`}
        label={
          props.kind === "PROXMOX" ? t("settings.field.tokenSecret") : t("settings.field.password")
        }
        hint={secretHint(draft, isSecretKept)}
        problems={problemsOf("secret")}
      >
        {(aria) => (
          <input
            {...aria}
            type="password"
            value={draft.secret}
            placeholder={isSecretKept ? t("settings.secretStored") : ""}
            autoComplete="new-password"
            onChange={(e) => set("secret", e.target.value)}
            onBlur={() => setTouched((s) => ({ ...s, secret: true }))}
          />
        )}
      </FormField>
      <FormField
        id={`${prefix}-ca`}
        label={t("settings.field.caPem")}
        hint={t("settings.hint.caPem")}
        problems={serverProblems.caPem ?? []}
      >
        {(aria) => (
          <textarea
            {...aria}
            rows={3}
            value={draft.caPem}
            spellCheck={false}
            onChange={(e) => set("caPem", e.target.value)}
          />
        )}
      </FormField>
      {props.kind === "PROXMOX" &&
        text(
          "maxConcurrentRequests",
          t("settings.field.maxConcurrentRequests"),
          t("settings.hint.maxConcurrentRequests"),
        )}
      {props.kind === "PROXMOX" &&
        text(
          "maxRequestsPerNode",
          t("settings.field.maxRequestsPerNode"),
          t("settings.hint.maxRequestsPerNode"),
        )}
      {text(
        "syncIntervalSeconds",
        t("settings.field.syncIntervalSeconds"),
        t("settings.hint.syncIntervalSeconds"),
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={draft.verifyTls}
          onChange={(e) => set("verifyTls", e.target.checked)}
        />{" "}
        {t("settings.field.verifyTls")}
      </label>
      {props.kind === "VCD" && (
        <label className="check">
          <input
            type="checkbox"
            checked={draft.isProvider}
            onChange={(e) => set("isProvider", e.target.checked)}
          />{" "}
          {t("settings.field.isProvider")}
        </label>
      )}
      {text(
        "lightPollSeconds",
        t("settings.field.lightPollSeconds"),
        t("settings.hint.lightPollSeconds"),
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={draft.isActive}
          onChange={(e) => set("isActive", e.target.checked)}
        />{" "}
        {t("settings.field.isActive")}
      </label>
      {groups.length > 0 && (
        <GroupPicker
          legend={t("groups.connectionIn")}
          groups={groups}
          value={groupIds}
          onChange={setGroupIds}
        />
      )}
      {(serverProblems.form ?? []).map((message) => (
        <p key={message} role="alert" className="problem">
          {message}
        </p>
      ))}
      <TestOutcome state={testOutcome} />
      <div className="actions">
        <button type="submit" className="primary" disabled={isSaving}>
          {t("common.save")}
        </button>
        <button
          type="button"
          aria-describedby={`${prefix}-test-hint`}
          disabled={testOutcome !== undefined && "pending" in testOutcome}
          onClick={() => void runTest()}
        >
          {t("settings.testUnsaved")}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t("common.cancel")}
        </button>
      </div>
      <small id={`${prefix}-test-hint`} className="muted">
        {t("settings.hint.testUnsaved")}
      </small>
    </form>
  );
}
