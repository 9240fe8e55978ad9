import { type ReactNode, useEffect, useState } from "react";
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
  const [search, setSearch] = useState(query.filter.search ?? "");
  const debounced = useDebounced(search, 250);
  useEffect(() => {
    const trimmed = debounced.trim();
    if (trimmed === (query.filter.search ?? "")) return;
    const { search: _, ...rest } = query.filter;
    onChange({ ...query, filter: trimmed ? { ...rest, search: trimmed } : rest });
  }, [debounced, query, onChange]);

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
