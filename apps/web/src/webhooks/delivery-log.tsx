import { formatDateTimeSeconds, formatMilliseconds } from "../i18n/format.ts";
import { currentLanguage, type MessageKey, t } from "../i18n/i18n.ts";
import { Badge } from "../ui/badge.tsx";
import type { WebhookDelivery } from "./webhook-documents.ts";
import { EVENT_TYPE_LABELS } from "./webhook-form.tsx";
import { deliveryTone, newestFirst } from "./webhook-state.ts";

const OUTCOME_LABELS: Record<string, MessageKey> = {
  DELIVERED: "webhooks.outcome.DELIVERED",
  FAILED: "webhooks.outcome.FAILED",
  GAVE_UP: "webhooks.outcome.GAVE_UP",
};

/** An event type's label; WEBHOOK_TEST is the test event. */
export function eventTypeLabel(eventType: string): string {
  if (eventType === "WEBHOOK_TEST") return t("webhooks.eventType.WEBHOOK_TEST");
  const key = EVENT_TYPE_LABELS[eventType as keyof typeof EVENT_TYPE_LABELS];
  return key ? t(key) : eventType;
}

/** An attempt's outcome in words, in its tone. */
export function OutcomeBadge(props: { outcome: string }) {
  const key = OUTCOME_LABELS[props.outcome];
  return <Badge tone={deliveryTone(props.outcome)}>{key ? t(key) : props.outcome}</Badge>;
}

/** One endpoint's delivery attempts, newest first: time, event, outcome, status, latency, error. */
export function DeliveryLog(props: { url: string; deliveries: readonly WebhookDelivery[] }) {
  const locale = currentLanguage();
  if (props.deliveries.length === 0) return <p className="muted">{t("webhooks.logEmpty")}</p>;
  return (
    <table className="list">
      <caption className="visually-hidden">{t("webhooks.logFor", { url: props.url })}</caption>
      <thead>
        <tr>
          <th scope="col">{t("webhooks.log.at")}</th>
          <th scope="col">{t("webhooks.log.event")}</th>
          <th scope="col">{t("webhooks.log.outcome")}</th>
          <th scope="col">{t("webhooks.log.statusCode")}</th>
          <th scope="col">{t("webhooks.log.latency")}</th>
          <th scope="col">{t("webhooks.log.attempt")}</th>
          <th scope="col">{t("webhooks.log.error")}</th>
        </tr>
      </thead>
      <tbody>
        {newestFirst(props.deliveries).map((d) => (
          <tr key={`${d.eventId}-${d.attempt}-${d.at}`}>
            <td>{formatDateTimeSeconds(locale, d.at)}</td>
            <td>
              {eventTypeLabel(d.eventType)}
              {d.eventSequence && <span className="muted"> #{d.eventSequence}</span>}
            </td>
            <td>
              <OutcomeBadge outcome={d.outcome} />
            </td>
            <td>{d.statusCode ?? "—"}</td>
            <td>{formatMilliseconds(locale, d.latencyMs)}</td>
            <td>{d.attempt}</td>
            <td>{d.error ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
