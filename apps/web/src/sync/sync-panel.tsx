import { formatCount, formatDateTime } from "../i18n/format.ts";
import { currentLanguage, type MessageKey, t } from "../i18n/i18n.ts";
import { serverMessagesText, serverMessageText } from "../i18n/server-text.ts";
import type { Connection } from "../settings/connection-fields.ts";
import { Badge } from "../ui/badge.tsx";
import { failureText } from "./failure-text.ts";
import { useSync } from "./sync-context.tsx";
import { type ConnectionProgress, finishedNote, guardNote, progressTone } from "./sync-progress.ts";

function statusText(p: ConnectionProgress): string {
  if (p.status === "failed") return t("sync.failed");
  if (p.status === "finished") {
    const outcome = p.outcome ?? "SUCCESS";
    return `${t("sync.finished")} · ${t(`outcome.${outcome}` as MessageKey)}`;
  }
  if (p.status === "starting") return t("sync.starting");
  if (p.status === "recent")
    return `${t("sync.recent")} · ${t(`outcome.${p.outcome ?? "SUCCESS"}` as MessageKey)}`;
  return p.phase ? t(`sync.phase.${p.phase}` as MessageKey) : t("sync.running");
}

function ProgressItem(props: { progress: ConnectionProgress; name: string }) {
  const { progress: p } = props;
  const locale = currentLanguage();
  const skipped = p.lists.filter((l) => l.status !== "ok");
  const note = finishedNote(p);
  return (
    <li className="sync-item" data-connection={props.name}>
      <div>
        <strong>{props.name}</strong> <Badge tone={progressTone(p)}>{statusText(p)}</Badge>
        {p.status === "running" && <span className="spinner" aria-hidden="true" />}
      </div>
      {p.lists.length > 0 && (
        <div className="muted">
          {t("sync.listsRead", { count: p.lists.length - skipped.length })}
        </div>
      )}
      {p.counts && (
        <div>
          {t("sync.counts", {
            seen: formatCount(locale, p.counts.seen),
            added: formatCount(locale, p.counts.added),
            changed: formatCount(locale, p.counts.changed),
            removed: formatCount(locale, p.counts.removed),
          })}
        </div>
      )}
      {skipped.map((list) => (
        <div key={list.key} className="tone-text-warn">
          {t("sync.listSkipped", {
            list: list.key,
            reason: list.reasonText
              ? serverMessageText(list.reasonText)
              : (list.reason ?? list.status),
          })}
        </div>
      ))}
      {p.guard && (
        <div className="tone-text-warn">
          {t("sync.guardFired")} {guardNote(p)}
        </div>
      )}
      {p.status === "failed" && (
        <div role="alert" className="tone-text-danger">
          {failureText(
            p.errorClass,
            p.message === null ? null : serverMessagesText(p.messageTexts, p.message),
          )}
        </div>
      )}
      {note && <div className="muted">{note}</div>}
      {p.cooldown && (
        <div className="muted">
          {t("sync.cooldown", {
            seconds: formatCount(locale, p.cooldown.secondsSinceLastRun),
            time: formatDateTime(locale, p.cooldown.nextManualSyncAt),
          })}
        </div>
      )}
    </li>
  );
}

/** Live progress of the syncs started from this page, one line per connection. */
export function SyncPanel(props: { connections: readonly Connection[]; only?: string }) {
  const { progress, error, dismiss } = useSync();
  const entries = Object.values(progress).filter(
    (p) => !props.only || p.connectionId === props.only,
  );
  if (entries.length === 0 && !error) return null;
  const nameOf = (id: string) => props.connections.find((c) => c.id === id)?.name ?? id;
  return (
    <section className="sync-panel" aria-label={t("sync.progressTitle")} aria-live="polite">
      <header>
        <h2>{t("sync.progressTitle")}</h2>
        {!props.only && (
          <button type="button" onClick={dismiss}>
            {t("common.close")}
          </button>
        )}
      </header>
      {error && (
        <p role="alert" className="tone-text-danger">
          {error}
        </p>
      )}
      <ul className="sync-list">
        {entries.map((p) => (
          <ProgressItem key={p.connectionId} progress={p} name={nameOf(p.connectionId)} />
        ))}
      </ul>
    </section>
  );
}
