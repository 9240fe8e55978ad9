import { t } from "../i18n/i18n.ts";
import { useRowNavigation } from "../ui/row-navigation.ts";
import { VirtualRows } from "../ui/virtual-rows.tsx";
import { COLUMNS, type ColumnId } from "./columns.ts";
import { VmCell } from "./vm-cell.tsx";
import type { TableQuery } from "./vm-filter.ts";
import type { VmRow } from "./vm-row.ts";

const ROW_HEIGHT = 40;

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
  const rowProps = useRowNavigation();
  const columns = COLUMNS.filter((c) => props.visible.includes(c.id));
  const template = columns.map((c) => c.width).join(" ");
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
      rowHeight={ROW_HEIGHT}
      hasMore={props.hasMore}
      onNeedMore={props.onNeedMore}
      header={header}
      renderRow={(row, index) => (
        <tr
          key={row.id}
          {...rowProps(row.id, index, () => props.onOpen(row))}
          aria-rowindex={index + 2}
          style={{ gridTemplateColumns: template, height: ROW_HEIGHT }}
        >
          {columns.map((column) => (
            <td key={column.id} className={column.isNumeric ? "numeric" : undefined}>
              {column.id === "name" ? (
                <button type="button" className="link" onClick={() => props.onOpen(row)}>
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
