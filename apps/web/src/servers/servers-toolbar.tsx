import { type ReactNode, useEffect, useRef, useState } from "react";
import { t } from "../i18n/i18n.ts";
import type { Connection } from "../settings/connection-fields.ts";
import { AppLink } from "../shell/app-link.tsx";
import { FilterBar } from "./filter-bar.tsx";
import { useDebounced } from "./use-debounced.ts";
import { paramsFromTableQuery, type TableQuery } from "./vm-filter.ts";

interface ToolbarProps {
  query: TableQuery;
  connections: readonly Connection[];
  onChange: (query: TableQuery) => void;
  /** The table's layout controls (grouping, columns, density), before Export. */
  children?: ReactNode;
  onExport: () => void;
  exportStatus: string | undefined;
}

/** Search, the filter bar, the layout controls given and export for the Servers table. */
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
      <FilterBar
        filter={query.filter}
        connections={props.connections}
        onChange={(filter) => onChange({ ...query, filter })}
      />
      {props.children}
      <button type="button" onClick={props.onExport} disabled={props.exportStatus !== undefined}>
        {props.exportStatus ?? t("servers.exportCsv")}
      </button>
      <AppLink href={integrationsLink}>{t("servers.useElsewhere")}</AppLink>
    </search>
  );
}
