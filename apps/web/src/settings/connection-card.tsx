import { useState } from "react";
import { useMutation } from "urql";
import { ConnectionRules } from "../address-rules/connection-rules.tsx";
import { graphql } from "../graphql/graphql.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { serverMessagesText } from "../i18n/server-text.ts";
import { navigate } from "../shell/router.ts";
import { useSync } from "../sync/sync-context.tsx";
import { SyncPanel } from "../sync/sync-panel.tsx";
import { Badge } from "../ui/badge.tsx";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { Isolated } from "../ui/cut-text.tsx";
import { outcomeTone } from "../ui/tone.ts";
import type { Connection } from "./connection-fields.ts";
import { connectionSummary } from "./connection-summary.ts";
import { EdgeGateways } from "./edge-gateways.tsx";
import { TestOutcome, type TestOutcomeState } from "./test-outcome.tsx";

const TEST_CONNECTION = graphql(`
  mutation TestConnection($id: ID!) {
    testConnection(id: $id) { ok errorClass message messageText { code params message } }
  }
`);

const DELETE_CONNECTION = graphql(`
  mutation DeleteConnection($id: ID!) { deleteConnection(id: $id) }
`);

/**
 * One connection in Settings: its last sync, and Edit, Test, Sync now, Show VMs, Delete; its
 * address rules for those who manage it.
 */
export function ConnectionCard(props: {
  connection: Connection;
  connections: readonly Connection[];
  canManage: boolean;
  onEdit: () => void;
  onDeleted: () => void;
}) {
  const { connection: c } = props;
  const locale = currentLanguage();
  const { syncOne, canSync } = useSync();
  const [, test] = useMutation(TEST_CONNECTION);
  const [, remove] = useMutation(DELETE_CONNECTION);
  const [testResult, setTestResult] = useState<TestOutcomeState>();
  const [problem, setProblem] = useState<string>();

  const runTest = async () => {
    setTestResult({ pending: true });
    const result = await test({ id: c.id });
    if (result.data) setTestResult(result.data.testConnection);
    else
      setTestResult({
        ok: false,
        errorClass: null,
        message: result.error?.message ?? t("common.failed"),
        messageText: null,
      });
  };

  return (
    <article className="connection-card" aria-label={c.name}>
      <header>
        <h3>{c.name}</h3>
        {c.lastSyncOutcome ? (
          <Badge tone={outcomeTone(c.lastSyncOutcome)}>{t(`outcome.${c.lastSyncOutcome}`)}</Badge>
        ) : (
          <Badge tone="neutral">{t("sync.never")}</Badge>
        )}
        {!c.isActive && <Badge tone="neutral">{t("settings.inactive")}</Badge>}
      </header>
      <p>
        <Isolated className="mono">{c.url}</Isolated>
      </p>
      <p className="muted">{connectionSummary(c, locale)}</p>
      {c.lastSyncMessage && <p>{serverMessagesText(c.lastSyncMessageTexts, c.lastSyncMessage)}</p>}
      {c.privilegeWarning && <p className="tone-text-warn">{c.privilegeWarning}</p>}
      <div className="actions">
        {props.canManage && (
          <button type="button" onClick={props.onEdit}>
            {t("common.edit")}
          </button>
        )}
        {props.canManage && (
          <button type="button" onClick={() => void runTest()}>
            {t("settings.test")}
          </button>
        )}
        {canSync && (
          <button type="button" onClick={() => void syncOne(c.id)}>
            {t("settings.syncNow")}
          </button>
        )}
        <button
          type="button"
          onClick={() => navigate(`/servers?connection=${encodeURIComponent(c.id)}`)}
        >
          {t("settings.showVms")}
        </button>
        {props.canManage && (
          <ConfirmButton
            label={t("common.delete")}
            question={t("settings.deleteQuestion", { name: c.name })}
            confirmLabel={t("common.confirmYes")}
            onConfirm={async () => {
              const result = await remove({ id: c.id });
              if (result.error) setProblem(result.error.message);
              else props.onDeleted();
            }}
          />
        )}
      </div>
      <TestOutcome state={testResult} />
      {problem && <p role="alert">{problem}</p>}
      <SyncPanel connections={props.connections} only={c.id} />
      {c.kind === "VCD" && <EdgeGateways connectionId={c.id} />}
      {props.canManage && <ConnectionRules connectionId={c.id} name={c.name} />}
    </article>
  );
}
