import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { problemsOfAnswer } from "../graphql/validation-error.ts";
import { formatDateTime, formatMilliseconds, formatRelative } from "../i18n/format.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { Badge } from "../ui/badge.tsx";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { DeliveryLog, OutcomeBadge } from "./delivery-log.tsx";
import { SecretOnce } from "./secret-once.tsx";
import {
  CREATE_WEBHOOK,
  DELETE_WEBHOOK,
  ROTATE_WEBHOOK_SECRET,
  SEND_TEST_WEBHOOK,
  UPDATE_WEBHOOK,
  WEBHOOK_ENDPOINTS,
  type WebhookEndpoint,
  type WebhookTestResult,
} from "./webhook-documents.ts";
import { draftOf, inputFromDraft } from "./webhook-draft.ts";
import { EVENT_TYPE_LABELS, WebhookForm } from "./webhook-form.tsx";
import { endpointState, endpointTone, newestFirst } from "./webhook-state.ts";

type Connections = readonly { id: string; name: string }[];

/** What a test event answered: delivered with its status, or why not. */
function TestOutcome(props: { result: WebhookTestResult }) {
  const locale = currentLanguage();
  const latency = formatMilliseconds(locale, props.result.latencyMs);
  const status = props.result.statusCode ?? "—";
  return (
    <p className={props.result.isDelivered ? "" : "problem"}>
      {props.result.isDelivered
        ? t("webhooks.testDelivered", { status, latency })
        : t("webhooks.testFailed", { status, latency, error: props.result.error ?? "" })}
    </p>
  );
}

/** Where an endpoint stands: its state and why, its place in the feed, its last attempt. */
function EndpointStatus(props: { endpoint: WebhookEndpoint }) {
  const { endpoint } = props;
  const locale = currentLanguage();
  const state = endpointState(endpoint);
  const last = newestFirst(endpoint.deliveries)[0];
  return (
    <ul className="plain">
      <li>
        <Badge tone={endpointTone(endpoint)}>{t(`webhooks.state.${state}`)}</Badge>{" "}
        {state === "DISABLED_BY_SERVER" &&
          (endpoint.failingSince
            ? t("webhooks.disabledByServer", {
                since: formatDateTime(locale, endpoint.failingSince),
              })
            : endpoint.disabledReason)}
        {state === "RETRYING" &&
          t("webhooks.retrying", {
            count: endpoint.failedAttempts,
            next: formatRelative(locale, endpoint.nextAttemptAt),
          })}
      </li>
      <li>{t("webhooks.position", { sequence: endpoint.lastDeliveredSequence })}</li>
      <li>
        {t("webhooks.lastDelivery")}{" "}
        {last ? (
          <>
            <OutcomeBadge outcome={last.outcome} /> {last.statusCode ?? ""}{" "}
            <span className="muted">{formatRelative(locale, last.at)}</span>
          </>
        ) : (
          <span className="muted">{t("webhooks.noDeliveries")}</span>
        )}
      </li>
    </ul>
  );
}

/** The filter in words: which event types, which connections (none chosen: all). */
function FilterText(props: { endpoint: WebhookEndpoint; connections: Connections }) {
  const types = props.endpoint.eventTypes.map((type) => t(EVENT_TYPE_LABELS[type]));
  const names = props.endpoint.connectionIds.map(
    (id) => props.connections.find((c) => c.id === id)?.name ?? id,
  );
  return (
    <dl className="inline-facts">
      <dt>{t("webhooks.eventTypes")}</dt>
      <dd>{types.length ? types.join(", ") : t("webhooks.allEvents")}</dd>
      <dt>{t("webhooks.connections")}</dt>
      <dd>{names.length ? names.join(", ") : t("groups.allConnections")}</dd>
    </dl>
  );
}

/** One endpoint: status, filter, actions (edit, test, rotate, delete) and its delivery log. */
function EndpointCard(props: {
  endpoint: WebhookEndpoint;
  connections: Connections;
  onChanged: () => void;
  onSecret: (shown: { url: string; secret: string }) => void;
}) {
  const { endpoint } = props;
  const [isEditing, setEditing] = useState(false);
  const [testResult, setTestResult] = useState<WebhookTestResult>();
  const [isTesting, setTesting] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [, update] = useMutation(UPDATE_WEBHOOK);
  const [, remove] = useMutation(DELETE_WEBHOOK);
  const [, rotate] = useMutation(ROTATE_WEBHOOK_SECRET);
  const [, sendTest] = useMutation(SEND_TEST_WEBHOOK);
  const headingId = `webhook-${endpoint.id}-title`;

  const test = async () => {
    setTesting(true);
    setTestResult(undefined);
    const answer = await sendTest({ id: endpoint.id });
    setTesting(false);
    setProblem(answer.error?.message);
    if (answer.data) setTestResult(answer.data.sendTestWebhook);
    props.onChanged();
  };

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="webhook-url">
        {endpoint.url}
      </h2>
      {endpoint.description && <p className="muted">{endpoint.description}</p>}
      <EndpointStatus endpoint={endpoint} />
      <FilterText endpoint={endpoint} connections={props.connections} />
      {isEditing ? (
        <WebhookForm
          idPrefix={`webhook-${endpoint.id}`}
          label={t("webhooks.editTitle", { url: endpoint.url })}
          initial={draftOf(endpoint)}
          connections={props.connections}
          isEditing
          submitLabel={t("common.save")}
          onCancel={() => setEditing(false)}
          onSave={async (draft) => {
            const found = problemsOfAnswer(
              await update({ id: endpoint.id, input: inputFromDraft(draft) }),
            );
            if (!found) {
              setEditing(false);
              props.onChanged();
            }
            return found;
          }}
        />
      ) : (
        <div className="actions">
          <button
            type="button"
            aria-label={t("webhooks.editTitle", { url: endpoint.url })}
            onClick={() => setEditing(true)}
          >
            {t("common.edit")}
          </button>
          <button type="button" disabled={isTesting} onClick={() => void test()}>
            {t("webhooks.sendTest")}
          </button>
          <ConfirmButton
            label={t("webhooks.rotate")}
            question={t("webhooks.rotateQuestion")}
            confirmLabel={t("webhooks.rotateYes")}
            onConfirm={async () => {
              const answer = await rotate({ id: endpoint.id });
              setProblem(answer.error?.message);
              const rotated = answer.data?.rotateWebhookSecret;
              if (rotated) props.onSecret({ url: rotated.endpoint.url, secret: rotated.secret });
            }}
          />
          <ConfirmButton
            label={t("common.delete")}
            question={t("webhooks.deleteQuestion", { url: endpoint.url })}
            confirmLabel={t("common.confirmYes")}
            onConfirm={async () => {
              const answer = await remove({ id: endpoint.id });
              setProblem(answer.error?.message);
              props.onChanged();
            }}
          />
        </div>
      )}
      <div role="status">
        {isTesting && <p className="muted">{t("webhooks.testSending")}</p>}
        {testResult && <TestOutcome result={testResult} />}
      </div>
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      <details>
        <summary>{t("webhooks.log.title", { count: endpoint.deliveries.length })}</summary>
        <DeliveryLog url={endpoint.url} deliveries={endpoint.deliveries} />
      </details>
    </section>
  );
}

/**
 * Webhooks (administrators): endpoints the change feed is posted to, signed; create one (its
 * secret shown once), edit, test, rotate, delete, and read each one's delivery log.
 */
export function WebhooksPage(props: { connections: Connections }) {
  const [{ data, error }, reload] = useQuery({
    query: WEBHOOK_ENDPOINTS,
    requestPolicy: "network-only",
  });
  const [, create] = useMutation(CREATE_WEBHOOK);
  const [shown, setShown] = useState<{ url: string; secret: string }>();
  const refresh = () => reload({ requestPolicy: "network-only" });

  return (
    <div>
      <h1>{t("nav.webhooks")}</h1>
      <p className="muted">{t("webhooks.intro")}</p>
      {shown && (
        <SecretOnce url={shown.url} secret={shown.secret} onClose={() => setShown(undefined)} />
      )}
      <WebhookForm
        className="card"
        idPrefix="webhook-new"
        label={t("webhooks.create")}
        initial={draftOf()}
        connections={props.connections}
        isEditing={false}
        submitLabel={t("webhooks.create")}
        onSave={async (draft) => {
          const answer = await create({ input: inputFromDraft(draft) });
          const found = problemsOfAnswer(answer);
          const outcome = answer.data?.result;
          if (!found && outcome && "data" in outcome) {
            setShown({ url: outcome.data.endpoint.url, secret: outcome.data.secret });
            refresh();
          }
          return found;
        }}
      >
        <h2>{t("webhooks.create")}</h2>
      </WebhookForm>
      {error && <p role="alert">{error.message}</p>}
      <div className="actions">
        <button type="button" onClick={refresh}>
          {t("webhooks.refresh")}
        </button>
      </div>
      {data && data.webhookEndpoints.length === 0 && <p className="muted">{t("webhooks.none")}</p>}
      {data?.webhookEndpoints.map((endpoint) => (
        <EndpointCard
          key={endpoint.id}
          endpoint={endpoint}
          connections={props.connections}
          onChanged={refresh}
          onSecret={(secret) => {
            setShown(secret);
            window.scrollTo({ top: 0 });
          }}
        />
      ))}
    </div>
  );
}
