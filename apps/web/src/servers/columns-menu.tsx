import type { KeyboardEvent } from "react";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { directionOf } from "../i18n/languages.ts";
import { COLUMNS, type ColumnId } from "./columns.ts";
import { moveColumn, stepToward, toggleColumn } from "./view-params.ts";

const ARROW_SIDES: Partial<Record<string, "left" | "right">> = {
  ArrowLeft: "left",
  ArrowRight: "right",
};

/**
 * The Columns menu: each column shown or hidden, and the shown ones moved earlier or later — the
 * keyboard's way to reorder what a header drag does (docs/behaviour.md §9.46). The buttons and the
 * arrow keys on them go the way they point on screen, in a right-to-left page too.
 */
export function ColumnsMenu(props: {
  visible: readonly ColumnId[];
  onChange: (columns: ColumnId[]) => void;
}) {
  const { visible } = props;
  const direction = directionOf(currentLanguage());
  // Earlier is left in a left-to-right page and right in a right-to-left one.
  const earlier = direction === "ltr" ? "left" : "right";
  const arrow = { left: "←", right: "→" } as const;
  const label = { left: "servers.moveColumnLeft", right: "servers.moveColumnRight" } as const;
  const later = earlier === "left" ? "right" : "left";
  const onArrowKey = (column: ColumnId) => (event: KeyboardEvent) => {
    const side = ARROW_SIDES[event.key];
    if (!side) return;
    event.preventDefault();
    props.onChange(moveColumn(visible, column, stepToward(side, direction)));
  };
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
          const columnLabel = t(column.label);
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
                {columnLabel}
              </label>
              {at >= 0 && (
                // biome-ignore lint/a11y/noStaticElementInteractions: the arrow keys on its two buttons
                <span className="column-moves" onKeyDown={onArrowKey(column.id)}>
                  <button
                    type="button"
                    aria-label={t(label[earlier], { column: columnLabel })}
                    disabled={at === 0}
                    onClick={() => props.onChange(moveColumn(visible, column.id, -1))}
                  >
                    {arrow[earlier]}
                  </button>
                  <button
                    type="button"
                    aria-label={t(label[later], { column: columnLabel })}
                    disabled={at === visible.length - 1}
                    onClick={() => props.onChange(moveColumn(visible, column.id, 1))}
                  >
                    {arrow[later]}
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
