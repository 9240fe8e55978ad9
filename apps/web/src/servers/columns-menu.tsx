import { t } from "../i18n/i18n.ts";
import { COLUMNS, type ColumnId } from "./columns.ts";
import { moveColumn, toggleColumn } from "./view-params.ts";

/**
 * The Columns menu: each column shown or hidden, and the shown ones moved left or right — the
 * keyboard's way to reorder what a header drag does (docs/behaviour.md §9.46).
 */
export function ColumnsMenu(props: {
  visible: readonly ColumnId[];
  onChange: (columns: ColumnId[]) => void;
}) {
  const { visible } = props;
  // The shown columns in their order, then the hidden ones in the default order.
  const listed = [
    ...visible,
    ...COLUMNS.map((c) => c.id).filter((id) => !visible.includes(id)),
  ].flatMap((id) => COLUMNS.find((c) => c.id === id) ?? []);
  return (
    <details className="menu">
      <summary>{t("servers.columns")}</summary>
      <fieldset className="columns-menu">
        <legend className="visually-hidden">{t("servers.columns")}</legend>
        {listed.map((column) => {
          const label = t(column.label);
          const at = visible.indexOf(column.id);
          return (
            <div key={column.id} className="column-choice">
              <label>
                <input
                  type="checkbox"
                  checked={at >= 0}
                  disabled={column.id === "name"}
                  onChange={(e) =>
                    props.onChange(toggleColumn(visible, column.id, e.target.checked))
                  }
                />{" "}
                {label}
              </label>
              {at >= 0 && (
                <span className="column-moves">
                  <button
                    type="button"
                    aria-label={t("servers.moveColumnLeft", { column: label })}
                    disabled={at === 0}
                    onClick={() => props.onChange(moveColumn(visible, column.id, -1))}
                  >
                    ←
                  </button>
                  <button
                    type="button"
                    aria-label={t("servers.moveColumnRight", { column: label })}
                    disabled={at === visible.length - 1}
                    onClick={() => props.onChange(moveColumn(visible, column.id, 1))}
                  >
                    →
                  </button>
                </span>
              )}
            </div>
          );
        })}
      </fieldset>
    </details>
  );
}
