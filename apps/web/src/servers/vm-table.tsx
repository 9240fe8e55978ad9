import type { DragEvent } from "react";
import { t } from "../i18n/i18n.ts";
import { useRowNavigation } from "../ui/row-navigation.ts";
import { useIsPhone } from "../ui/use-is-phone.ts";
import { VirtualRows } from "../ui/virtual-rows.tsx";
import { ColumnResizer } from "./column-resizer.tsx";
import { COLUMNS, type ColumnId } from "./columns.ts";
import { GroupHeaderRow, MoreRowsRow } from "./group-header-row.tsx";
import { type GroupKey, groupId, type TableItem } from "./group-rows.ts";
import { type ColumnWidths, columnTemplate } from "./local-prefs.ts";
import { dropColumn, type GroupBy } from "./view-params.ts";
import { VmCell } from "./vm-cell.tsx";
import type { TableQuery } from "./vm-filter.ts";
import type { VmRow } from "./vm-row.ts";

/** Row heights in pixels: the usual, and dense (docs/behaviour.md §9.46). */
export const ROW_HEIGHT = 28;
export const DENSE_ROW_HEIGHT = 22;
/** A phone shows each guest as a card of label and value pairs (docs/behaviour.md §9.54). */
const CARD_HEIGHT = 140;

const DRAG_TYPE = "application/x-hyperlens-column";

interface VmTableProps {
  items: TableItem<VmRow>[];
  totalCount: number;
  hasMore: boolean;
  onNeedMore: () => void;
  onWindowChange?: (start: number, end: number) => void;
  group: GroupBy | undefined;
  onToggleGroup: (key: GroupKey) => void;
  /** The columns shown, in display order. */
  visible: readonly ColumnId[];
  widths: ColumnWidths;
  onResize: (column: ColumnId, width: number) => void;
  onReorder: (columns: ColumnId[]) => void;
  isDense: boolean;
  orderBy: TableQuery["orderBy"];
  onSort: (column: ColumnId) => void;
  onOpen: (row: VmRow) => void;
}

/**
 * The virtualized table of guests; clicking a sortable header sorts on the server, dragging a
 * header moves its column, and each header's edge resizes it. Grouped, it holds group header rows
 * among the guests' rows.
 */
export function VmTable(props: VmTableProps) {
  const rowProps = useRowNavigation();
  const columns = props.visible.flatMap((id) => COLUMNS.find((c) => c.id === id) ?? []);
  const template = columnTemplate(props.visible, props.widths);
  const isPhone = useIsPhone();
  const rowHeight = isPhone ? CARD_HEIGHT : props.isDense ? DENSE_ROW_HEIGHT : ROW_HEIGHT;
  const onDrop = (before: ColumnId) => (event: DragEvent) => {
    const dragged = event.dataTransfer.getData(DRAG_TYPE);
    const id = props.visible.find((c) => c === dragged);
    if (!id) return;
    event.preventDefault();
    props.onReorder(dropColumn(props.visible, id, before));
  };
  const header = (
    <thead>
      <tr style={{ gridTemplateColumns: template }} aria-rowindex={1}>
        {columns.map((column) => {
          const isSorted =
            column.sortField !== undefined && props.orderBy.field === column.sortField;
          const direction = props.orderBy.direction === "ASC" ? "ascending" : "descending";
          return (
            <th
              key={column.id}
              scope="col"
              aria-sort={isSorted ? direction : undefined}
              className={
                [column.isNumeric && "numeric", column.sortField && "sortable"]
                  .filter(Boolean)
                  .join(" ") || undefined
              }
              draggable
              onDragStart={(event) => {
                event.dataTransfer.setData(DRAG_TYPE, column.id);
                event.dataTransfer.effectAllowed = "move";
              }}
              onDragOver={(event) => {
                if (event.dataTransfer.types.includes(DRAG_TYPE)) event.preventDefault();
              }}
              onDrop={onDrop(column.id)}
            >
              {column.sortField ? (
                <button type="button" className="sort" onClick={() => props.onSort(column.id)}>
                  {t(column.label)}
                  <span aria-hidden="true">
                    {isSorted ? (direction === "ascending" ? " ▲" : " ▼") : ""}
                  </span>
                </button>
              ) : (
                t(column.label)
              )}
              <ColumnResizer
                label={t("servers.resizeColumn", { column: t(column.label) })}
                width={props.widths[column.id]}
                onResize={(width) => props.onResize(column.id, width)}
              />
            </th>
          );
        })}
      </tr>
    </thead>
  );
  return (
    <VirtualRows
      label={t("servers.tableLabel")}
      rows={props.items}
      totalCount={props.totalCount}
      rowHeight={rowHeight}
      hasMore={props.hasMore}
      onNeedMore={props.onNeedMore}
      onWindowChange={props.onWindowChange}
      header={header}
      renderRow={(item, index) => {
        if (item.kind === "group")
          return (
            <GroupHeaderRow
              key={`group${groupId(item.key)}`}
              by={props.group ?? "source"}
              groupKey={item.key}
              count={item.count}
              isExpanded={item.isExpanded}
              rowIndex={index + 2}
              height={rowHeight}
              onToggle={props.onToggleGroup}
              navigation={rowProps(`group${groupId(item.key)}`, index, () =>
                props.onToggleGroup(item.key),
              )}
            />
          );
        if (item.kind === "more")
          return (
            <MoreRowsRow
              key={`more${groupId(item.groupKey)}`}
              rowIndex={index + 2}
              height={rowHeight}
            />
          );
        const { row } = item;
        return (
          <tr
            // A guest with several tags is in several groups: its key names the group too.
            key={item.groupKey === undefined ? row.id : `${groupId(item.groupKey)}${row.id}`}
            {...rowProps(
              item.groupKey === undefined ? row.id : `${groupId(item.groupKey)}${row.id}`,
              index,
              () => props.onOpen(row),
            )}
            aria-rowindex={index + 2}
            style={{ gridTemplateColumns: template, height: rowHeight }}
          >
            {columns.map((column) => (
              <td
                key={column.id}
                className={column.isNumeric ? "numeric" : undefined}
                data-column={column.id}
                data-label={t(column.label)}
              >
                {column.id === "name" ? (
                  <button
                    type="button"
                    className="link cut"
                    title={row.name}
                    onClick={() => props.onOpen(row)}
                  >
                    <VmCell row={row} column="name" />
                  </button>
                ) : (
                  <VmCell row={row} column={column.id} />
                )}
              </td>
            ))}
          </tr>
        );
      }}
    />
  );
}
