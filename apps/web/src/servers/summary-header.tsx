import type { ConnectionKind } from "@hyperlens/shared";
import { CONNECTION_KINDS } from "@hyperlens/shared";
import type { ReactNode } from "react";
import { changesPath } from "../changes/change-range.ts";
import { formatBytes, formatCount, formatRelative } from "../i18n/format.ts";
import { currentLanguage, type MessageKey, t } from "../i18n/i18n.ts";
import { serverMessagesText } from "../i18n/server-text.ts";
import type { Connection } from "../settings/connection-fields.ts";
import { AppLink } from "../shell/app-link.tsx";
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

/** The overall figures as one line of values and their names. */
function FiguresLine(props: { figures: Figures }) {
  const locale = currentLanguage();
  const { figures } = props;
  const unknown = t("servers.summary.needsAggregate");
  const sum = (value: number | undefined, format: (v: number) => string) =>
    value === undefined ? <span title={unknown}>—</span> : format(value);
  const items: [MessageKey, ReactNode][] = [
    ["servers.summary.vms", formatCount(locale, figures.vms)],
    ["servers.summary.containers", formatCount(locale, figures.containers)],
    ["servers.summary.running", formatCount(locale, figures.running)],
    ["servers.summary.vcpus", sum(figures.cpus, (v) => formatCount(locale, v))],
    ["servers.summary.memory", sum(figures.memoryBytes, (v) => formatBytes(locale, v))],
    ["servers.summary.disk", sum(figures.diskBytes, (v) => formatBytes(locale, v))],
  ];
  return (
    <ul className="figures-line">
      {items.map(([label, value]) => (
        <li key={label}>
          <strong>{value}</strong> {t(label)}
        </li>
      ))}
    </ul>
  );
}

/** How many connections' last syncs ended each way, as badges ("2 connections: Succeeded"). */
function OutcomesLine(props: { connections: readonly Connection[] }) {
  const byOutcome = new Map<Connection["lastSyncOutcome"], number>();
  for (const { lastSyncOutcome: outcome } of props.connections)
    byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
  return (
    <ul className="figures-line" aria-label={t("servers.summary.lastSyncs")}>
      {[...byOutcome].map(([outcome, count]) => (
        <li key={outcome ?? "never"}>
          <Badge tone={outcome ? outcomeTone(outcome) : "neutral"}>
            {t("servers.summary.connectionsWithOutcome", {
              count,
              outcome: outcome ? t(`outcome.${outcome}`) : t("sync.never"),
            })}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

/**
 * Totals per source and overall, and the last sync of each connection — or, folded, the totals
 * and the syncs' outcomes on one line, so the table below keeps the screen (docs/behaviour.md §9.46).
 */
export function SummaryHeader(props: {
  summary: { total: Figures; bySource: Record<ConnectionKind, Figures> } | undefined;
  connections: readonly Connection[];
  isExpanded: boolean;
  onExpandedChange: (isExpanded: boolean) => void;
}) {
  const locale = currentLanguage();
  const { summary } = props;
  const toggleLabel = t(props.isExpanded ? "servers.summary.fold" : "servers.summary.unfold");
  const toggle = (
    <button
      type="button"
      className="summary-toggle"
      aria-expanded={props.isExpanded}
      aria-label={toggleLabel}
      title={toggleLabel}
      onClick={() => props.onExpandedChange(!props.isExpanded)}
    >
      <span aria-hidden="true">{props.isExpanded ? "▴" : "▾"}</span>
    </button>
  );
  // Folded or not, "What changed?" is one step away (§9.51).
  const whatChanged = (
    <AppLink href={changesPath({ since: "24h" })}>{t("servers.history.whatChanged")}</AppLink>
  );
  if (!props.isExpanded)
    return (
      <section className="summary folded" aria-label={t("servers.summary.title")}>
        {summary && hasAnyGuest(summary.total) && <FiguresLine figures={summary.total} />}
        <OutcomesLine connections={props.connections} />
        {whatChanged}
        {toggle}
      </section>
    );
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
      {whatChanged}
      {toggle}
    </section>
  );
}
