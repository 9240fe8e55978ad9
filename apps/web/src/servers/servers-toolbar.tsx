import { useEffect, useState } from "react";
import { t } from "../i18n/i18n.ts";
import type { Connection } from "../settings/connection-fields.ts";
import { AppLink } from "../shell/app-link.tsx";
import { COLUMNS, type ColumnId } from "./columns.ts";
import { FilterBar } from "./filter-bar.tsx";
import { useDebounced } from "./use-debounced.ts";
import { paramsFromTableQuery, type TableQuery } from "./vm-filter.ts";

interface ToolbarProps {
  query: TableQuery;
  connections: readonly Connection[];
  onChange: (query: TableQuery) => void;
  visible: readonly ColumnId[];
  onVisibleChange: (ids: ColumnId[]) => void;
  onExport: () => void;
  exportStatus: string | undefined;
}

/** Search, the filter bar, column choice and export for the Servers table. */
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
