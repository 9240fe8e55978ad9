import type { Capability } from "@hyperlens/shared";
import { useCallback, useMemo, useState } from "react";
import { useClient } from "urql";
import { formatCount } from "../i18n/format.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import type { Connection } from "../settings/connection-fields.ts";
import { navigate } from "../shell/router.ts";
import { SyncAllButton } from "../sync/sync-all-button.tsx";
import { useSync } from "../sync/sync-context.tsx";
import { SyncPanel } from "../sync/sync-panel.tsx";
import { isAnyRunning } from "../sync/sync-progress.ts";
import { useEscapeClosesMenus } from "../ui/escape-closes-menus.ts";
import { useSlashFocusesSearch } from "../ui/slash-focuses-search.ts";
import { COLUMNS, type ColumnId, readVisibleColumns, saveVisibleColumns } from "./columns.ts";
import { ColumnsMenu } from "./columns-menu.tsx";
import { emptyState } from "./empty-state.ts";
import { downloadText, fetchCsv } from "./export-csv.ts";
import { plainItems } from "./group-rows.ts";
import { useGuestDrawer } from "./guest-drawer.ts";
import { InventoryHistory } from "./inventory-history.tsx";
import { DENSE, FIGURES_EXPANDED, useRemembered, WIDTHS } from "./local-prefs.ts";
import { useSavedViewLink } from "./saved-view-link.ts";
import { SavedViewsMenu } from "./saved-views-menu.tsx";
import { csvFileName } from "./servers-csv.ts";
import { ServersToolbar } from "./servers-toolbar.tsx";
import { SummaryHeader } from "./summary-header.tsx";
import { useSummary } from "./use-summary.ts";
import { useVmGroups } from "./use-vm-groups.ts";
import { useVmPages } from "./use-vm-pages.ts";
import { ViewControls } from "./view-controls.tsx";
import { type TableView, viewFromParams, withViewParams } from "./view-params.ts";
import { VmDetailDrawer } from "./vm-detail.tsx";
import {
  isFiltered,
  paramsFromTableQuery,
  type TableQuery,
  tableQueryFromParams,
  toggleSort,
} from "./vm-filter.ts";
import { VmTable } from "./vm-table.tsx";

/** The Servers page: figures, sync, and one table of every guest from every source. */
export function ServersPage(props: {
  params: URLSearchParams;
  connections: readonly Connection[];
  capabilities: readonly Capability[];
}) {
  const client = useClient();
  const locale = currentLanguage();
  const { settledCount, progress } = useSync();
  const query = tableQueryFromParams(props.params);
  const view = viewFromParams(props.params);
  const pages = useVmPages(query, settledCount);
  const grouped = useVmGroups(query, view.group, settledCount);
  const summary = useSummary(settledCount);
  // Columns named by the URL win; without them, the choice this browser remembers.
  const [remembered, setRemembered] = useState<ColumnId[]>(readVisibleColumns);
  const visible = view.columns ?? remembered;
  const [widths, setWidths] = useRemembered(WIDTHS);
  const [isDense, setDense] = useRemembered(DENSE);
  const [isFiguresExpanded, setFiguresExpanded] = useRemembered(FIGURES_EXPANDED);
  const [exportStatus, setExportStatus] = useState<string>();
  const plain = useMemo(() => plainItems(pages.rows), [pages.rows]);
  const items = view.group ? grouped.items : plain;
  const drawer = useGuestDrawer(props.params);
  const viewLink = useSavedViewLink(props.params);
  useEscapeClosesMenus();
  useSlashFocusesSearch(".servers-page");

  const show = (next: TableQuery, nextView: TableView) => {
    const search = withViewParams(paramsFromTableQuery(next), nextView).toString();
    navigate(`/servers${search ? `?${search}` : ""}`, { replace: true });
  };
  const viewKey = props.params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL (viewKey) holds the layout that `view` reads
  const setQuery = useCallback((next: TableQuery) => show(next, view), [viewKey]);
  const setView = (next: Partial<TableView>) => show(query, { ...view, ...next });
  const setColumns = (ids: ColumnId[]) => {
    setRemembered(ids);
    saveVisibleColumns(ids);
    setView({ columns: ids });
  };

  const exportCsv = async () => {
    setExportStatus(t("servers.exporting", { done: 0, total: pages.totalCount ?? 0 }));
    try {
      const csv = await fetchCsv(client, query, (done, total) =>
        setExportStatus(t("servers.exporting", { done, total })),
      );
      downloadText(csvFileName(isFiltered(query.filter), new Date()), csv);
    } finally {
      setExportStatus(undefined);
    }
  };

  const isEmpty = pages.totalCount === 0;
  const empty =
    isEmpty && !isFiltered(query.filter)
      ? emptyState({
          connections: props.connections,
          capabilities: props.capabilities,
          isSyncing: isAnyRunning(progress),
        })
      : undefined;
  const summaryHeader = (
    <SummaryHeader
      summary={summary}
      connections={props.connections}
      isExpanded={isFiguresExpanded}
      onExpandedChange={setFiguresExpanded}
    />
  );
  return (
    <div className="servers-page">
      <div className="page-head">
        <h1>{t("nav.servers")}</h1>
        {/* Folded, the figures share the heading's line (docs/behaviour.md §9.46). */}
        {!isFiguresExpanded && summaryHeader}
        <SavedViewsMenu params={props.params} />
        <SyncAllButton connections={props.connections} />
      </div>
      {viewLink.isMissing && <p role="alert">{t("views.notFound")}</p>}
      <SyncPanel connections={props.connections} />
      {isFiguresExpanded && summaryHeader}
      {isFiguresExpanded && <InventoryHistory />}
      <ServersToolbar
        query={query}
        connections={props.connections}
        onChange={setQuery}
        onExport={() => void exportCsv()}
        exportStatus={exportStatus}
      >
        <ViewControls
          group={view.group}
          onGroupChange={(group) => setView({ group })}
          isDense={isDense}
          onDenseChange={setDense}
        />
        <ColumnsMenu visible={visible} onChange={setColumns} />
      </ServersToolbar>
      <p className="muted list-count" aria-live="polite">
        {pages.totalCount !== undefined &&
          (view.group && grouped.groups
            ? t("servers.countGrouped", {
                count: pages.totalCount,
                groups: grouped.groups.length,
              })
            : t("servers.count", {
                count: pages.totalCount,
                shown: formatCount(locale, pages.rows.length),
              }))}
      </p>
      {pages.error !== undefined && <p role="alert">{pages.error || t("common.failed")}</p>}
      {view.group && grouped.error !== undefined && (
        <p role="alert">{grouped.error || t("common.failed")}</p>
      )}
      {empty && (
        <div className="empty">
          <h2>{t("servers.empty.title")}</h2>
          <p>{t(empty.body, { button: t("sync.button") })}</p>
          {empty.canAddConnection && props.connections.length === 0 && (
            <button type="button" onClick={() => navigate("/settings")}>
              {t("servers.empty.addConnection")}
            </button>
          )}
        </div>
      )}
      {isEmpty && isFiltered(query.filter) && <p className="empty">{t("servers.noMatch")}</p>}
      {!isEmpty && (
        <VmTable
          items={items}
          totalCount={view.group ? items.length : (pages.totalCount ?? 0)}
          hasMore={!view.group && pages.hasMore}
          onNeedMore={pages.loadMore}
          onWindowChange={view.group ? grouped.showWindow : undefined}
          group={view.group}
          onToggleGroup={grouped.toggle}
          visible={visible}
          widths={widths}
          onResize={(id, width) => setWidths({ ...widths, [id]: width })}
          onReorder={setColumns}
          isDense={isDense}
          orderBy={query.orderBy}
          onSort={(id) => {
            const field = COLUMNS.find((c) => c.id === id)?.sortField;
            if (field) setQuery({ ...query, orderBy: toggleSort(query.orderBy, field) });
          }}
          onOpen={drawer.open}
        />
      )}
      {drawer.id && <VmDetailDrawer id={drawer.id} name={drawer.name} onClose={drawer.close} />}
    </div>
  );
}
