import { t } from "../i18n/i18n.ts";
import { useIsPhone } from "../ui/use-is-phone.ts";
import { VirtualRows } from "../ui/virtual-rows.tsx";
import { COLUMNS, type ColumnId } from "./columns.ts";
import { VmCell } from "./vm-cell.tsx";
import type { TableQuery } from "./vm-filter.ts";
import type { VmRow } from "./vm-row.ts";

const ROW_HEIGHT = 40;
/** A phone shows each guest as a card of label and value pairs (docs/behaviour.md §9.54). */
const CARD_HEIGHT = 140;

interface VmTableProps {
  rows: VmRow[];
  totalCount: number;
  hasMore: boolean;
  onNeedMore: () => void;
  visible: readonly ColumnId[];
  orderBy: TableQuery["orderBy"];
  onSort: (column: ColumnId) => void;
  onOpen: (row: VmRow) => void;
}

/** The virtualized table of guests; clicking a sortable header sorts on the server. */
export function VmTable(props: VmTableProps) {
  const columns = COLUMNS.filter((c) => props.visible.includes(c.id));
  const template = columns.map((c) => c.width).join(" ");
  const rowHeight = useIsPhone() ? CARD_HEIGHT : ROW_HEIGHT;
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
              className={column.isNumeric ? "numeric" : undefined}
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
            </th>
          );
        })}
      </tr>
    </thead>
  );
  return (
    <VirtualRows
      label={t("servers.tableLabel")}
      rows={props.rows}
      totalCount={props.totalCount}
      rowHeight={rowHeight}
      hasMore={props.hasMore}
      onNeedMore={props.onNeedMore}
      header={header}
      renderRow={(row, index) => (
        <tr
          key={row.id}
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
      )}
    />
  );
}
