import type { ConnectionKind } from "@hyperlens/shared";
import { CONNECTION_KINDS } from "@hyperlens/shared";
import type { ReactNode } from "react";
import { formatBytes, formatCount, formatRelative } from "../i18n/format.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { serverMessagesText } from "../i18n/server-text.ts";
import type { Connection } from "../settings/connection-fields.ts";
import { Badge, SourceBadge } from "../ui/badge.tsx";
import { outcomeTone } from "../ui/tone.ts";
import { type Figures, hasAnyGuest } from "./summary-figures.ts";

function FigureRow(props: { label: ReactNode; figures: Figures }) {
  const locale = currentLanguage();
  const { figures } = props;
  const unknown = t("servers.summary.needsAggregate");
  const sum = (value: number | undefined, format: (v: number) => string) =>
    value === undefined ? <span title={unknown}>—</span> : format(value);
  return (
    <tr>
      <th scope="row">{props.label}</th>
      <td>{formatCount(locale, figures.vms)}</td>
      <td>{formatCount(locale, figures.containers)}</td>
      <td>{formatCount(locale, figures.running)}</td>
      <td>{sum(figures.cpus, (v) => formatCount(locale, v))}</td>
      <td>{sum(figures.memoryBytes, (v) => formatBytes(locale, v))}</td>
      <td>{sum(figures.diskBytes, (v) => formatBytes(locale, v))}</td>
    </tr>
  );
}

/** Totals per source and overall, and the last sync of each connection. */
export function SummaryHeader(props: {
  summary: { total: Figures; bySource: Record<ConnectionKind, Figures> } | undefined;
  connections: readonly Connection[];
}) {
  const locale = currentLanguage();
  const { summary } = props;
  const sources = CONNECTION_KINDS.filter((source) =>
    props.connections.some((c) => c.kind === source),
  );
  return (
    <section className="summary" aria-label={t("servers.summary.title")}>
      {summary && hasAnyGuest(summary.total) && (
        <table className="figures">
          <thead>
            <tr>
              <td />
              <th scope="col">{t("servers.summary.vms")}</th>
              <th scope="col">{t("servers.summary.containers")}</th>
              <th scope="col">{t("servers.summary.running")}</th>
              <th scope="col">{t("servers.summary.vcpus")}</th>
              <th scope="col">{t("servers.summary.memory")}</th>
              <th scope="col">{t("servers.summary.disk")}</th>
            </tr>
          </thead>
          <tbody>
            <FigureRow label={t("servers.summary.total")} figures={summary.total} />
            {sources.map((source) => (
              <FigureRow
                key={source}
                label={<SourceBadge source={source} />}
                figures={summary.bySource[source]}
              />
            ))}
          </tbody>
        </table>
      )}
      <ul className="last-syncs" aria-label={t("servers.summary.lastSyncs")}>
        {props.connections.map((connection) => (
          <li key={connection.id}>
            <SourceBadge source={connection.kind} /> <strong>{connection.name}</strong>{" "}
            {connection.lastSyncOutcome ? (
              <Badge
                tone={outcomeTone(connection.lastSyncOutcome)}
                title={
                  connection.lastSyncMessage
                    ? serverMessagesText(
                        connection.lastSyncMessageTexts,
                        connection.lastSyncMessage,
                      )
                    : undefined
                }
              >
                {t(`outcome.${connection.lastSyncOutcome}`)}
              </Badge>
            ) : (
              <Badge tone="neutral">{t("sync.never")}</Badge>
            )}{" "}
            <span className="muted">{formatRelative(locale, connection.lastSyncAt)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
