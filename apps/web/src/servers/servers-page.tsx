import type { Capability } from "@hyperlens/shared";
import { useCallback, useState } from "react";
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
import { emptyState } from "./empty-state.ts";
import { downloadText, fetchCsv } from "./export-csv.ts";
import { useGuestDrawer } from "./guest-drawer.ts";
import { useSavedViewLink } from "./saved-view-link.ts";
import { SavedViewsMenu } from "./saved-views-menu.tsx";
import { csvFileName } from "./servers-csv.ts";
import { ServersToolbar } from "./servers-toolbar.tsx";
import { SummaryHeader } from "./summary-header.tsx";
import { useSummary } from "./use-summary.ts";
import { useVmPages } from "./use-vm-pages.ts";
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
  const pages = useVmPages(query, settledCount);
  const summary = useSummary(settledCount);
  const [visible, setVisible] = useState<ColumnId[]>(readVisibleColumns);
  const [exportStatus, setExportStatus] = useState<string>();
  const drawer = useGuestDrawer(props.params);
  const viewLink = useSavedViewLink(props.params);
  useEscapeClosesMenus();
  useSlashFocusesSearch(".servers-page");

  const setQuery = useCallback((next: TableQuery) => {
    const search = paramsFromTableQuery(next).toString();
    navigate(`/servers${search ? `?${search}` : ""}`, { replace: true });
  }, []);

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
  return (
    <div className="servers-page">
      <div className="page-head">
        <h1>{t("nav.servers")}</h1>
        <SavedViewsMenu params={props.params} />
        <SyncAllButton connections={props.connections} />
      </div>
      {viewLink.isMissing && <p role="alert">{t("views.notFound")}</p>}
      <SyncPanel connections={props.connections} />
      <SummaryHeader summary={summary} connections={props.connections} />
      <ServersToolbar
        query={query}
        connections={props.connections}
        onChange={setQuery}
        visible={visible}
        onVisibleChange={(ids) => {
          setVisible(ids);
          saveVisibleColumns(ids);
        }}
        onExport={() => void exportCsv()}
        exportStatus={exportStatus}
      />
      <p className="muted" aria-live="polite">
        {pages.totalCount !== undefined &&
          t("servers.count", {
            count: pages.totalCount,
            shown: formatCount(locale, pages.rows.length),
          })}
      </p>
      {pages.error !== undefined && <p role="alert">{pages.error || t("common.failed")}</p>}
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
          rows={pages.rows}
          totalCount={pages.totalCount ?? 0}
          hasMore={pages.hasMore}
          onNeedMore={pages.loadMore}
          visible={visible}
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
