import type { ConnectionKind, NeutralPowerState as PowerState } from "@hyperlens/shared";
import { useEffect, useRef, useState } from "react";
import { t } from "../i18n/i18n.ts";
import type { Connection } from "../settings/connection-fields.ts";
import { AppLink } from "../shell/app-link.tsx";
import { COLUMNS, type ColumnId } from "./columns.ts";
import { useDebounced } from "./use-debounced.ts";
import { paramsFromTableQuery, SOURCES, STATES, type TableQuery } from "./vm-filter.ts";

interface ToolbarProps {
  query: TableQuery;
  connections: readonly Connection[];
  onChange: (query: TableQuery) => void;
  visible: readonly ColumnId[];
  onVisibleChange: (ids: ColumnId[]) => void;
  onExport: () => void;
  exportStatus: string | undefined;
}

/** Search, filters, column choice and export for the Servers table. */
export function ServersToolbar(props: ToolbarProps) {
  const { query, onChange } = props;
  const addressSearch = query.filter.search ?? "";
  const [search, setSearch] = useState(addressSearch);
  const debounced = useDebounced(search, 250);
  // What this field last wrote to the address: any other change there (a saved view, Back) is
  // shown in the field. TRAP: docs/behaviour.md §9.47 — else the stale field wrote itself back
  // over the opened view's search.
  const [written, setWritten] = useState(addressSearch);
  if (addressSearch !== written) {
    setWritten(addressSearch);
    if (addressSearch !== search.trim()) setSearch(addressSearch);
  }
  const latest = useRef({ query, onChange });
  latest.current = { query, onChange };
  useEffect(() => {
    const trimmed = debounced.trim();
    const { query, onChange } = latest.current;
    if (trimmed === (query.filter.search ?? "")) return;
    setWritten(trimmed);
    const { search: _, ...rest } = query.filter;
    onChange({ ...query, filter: trimmed ? { ...rest, search: trimmed } : rest });
  }, [debounced]);

  const setList = <K extends "source" | "state">(key: K, value: string) => {
    const { [key]: _, ...rest } = query.filter;
    const list = value ? [value] : [];
    onChange({ ...query, filter: list.length ? { ...rest, [key]: list } : rest });
  };
  const connectionId = query.filter.connectionId?.[0];
  const connection = props.connections.find((c) => c.id === connectionId);
  const integrationsLink = `/integrations?${paramsFromTableQuery(query)}`;

  return (
    <search className="toolbar">
      <label className="search">
        <span className="visually-hidden">{t("servers.search")}</span>
        <input
          type="search"
          value={search}
          placeholder={t("servers.searchPlaceholder")}
          aria-label={t("servers.search")}
          onChange={(e) => setSearch(e.target.value)}
        />
      </label>
      <label>
        {t("servers.column.source")}{" "}
        <select
          value={query.filter.source?.[0] ?? ""}
          onChange={(e) => setList("source", e.target.value)}
        >
          <option value="">{t("servers.all")}</option>
          {SOURCES.map((s: ConnectionKind) => (
            <option key={s} value={s}>
              {t(`source.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("servers.column.state")}{" "}
        <select
          value={query.filter.state?.[0] ?? ""}
          onChange={(e) => setList("state", e.target.value)}
        >
          <option value="">{t("servers.all")}</option>
          {STATES.map((s: PowerState) => (
            <option key={s} value={s}>
              {t(`state.${s}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          checked={query.filter.isTemplate !== false}
          onChange={(e) => {
            const { isTemplate: _, ...rest } = query.filter;
            onChange({
              ...query,
              filter: e.target.checked ? rest : { ...rest, isTemplate: false },
            });
          }}
        />{" "}
        {t("servers.showTemplates")}
      </label>
      {connectionId && (
        <span className="chip">
          {t("servers.onlyConnection", { name: connection?.name ?? connectionId })}{" "}
          <button
            type="button"
            aria-label={t("servers.clearConnection")}
            onClick={() => {
              const { connectionId: _, ...rest } = query.filter;
              onChange({ ...query, filter: rest });
            }}
          >
            ×
          </button>
        </span>
      )}
      <details className="menu">
        <summary>{t("servers.columns")}</summary>
        <fieldset>
          <legend className="visually-hidden">{t("servers.columns")}</legend>
          {COLUMNS.filter((c) => c.id !== "name").map((column) => (
            <label key={column.id}>
              <input
                type="checkbox"
                checked={props.visible.includes(column.id)}
                onChange={(e) =>
                  props.onVisibleChange(
                    COLUMNS.map((c) => c.id).filter((id) =>
                      id === column.id ? e.target.checked : props.visible.includes(id),
                    ),
                  )
                }
              />{" "}
              {t(column.label)}
            </label>
          ))}
        </fieldset>
      </details>
      <button type="button" onClick={props.onExport} disabled={props.exportStatus !== undefined}>
        {props.exportStatus ?? t("servers.exportCsv")}
      </button>
      <AppLink href={integrationsLink}>{t("servers.useElsewhere")}</AppLink>
    </search>
  );
}
