// Arrow keys between the rows of a table (a roving tabindex: one row is in the Tab order, the
// keys move focus and that place). It works on whatever rows are rendered with `rowProps`, VM rows
// and group header rows alike, in the order the page shows them (docs/behaviour.md §9.49).
import { type KeyboardEvent, useCallback, useState } from "react";

const ROW = "[data-row-key]";

/** Which row a navigation key moves to, given the rendered rows and the current one; null: none. */
export function rowAfterKey(key: string, count: number, current: number): number | null {
  if (count === 0) return null;
  if (key === "ArrowDown") return Math.min(current + 1, count - 1);
  if (key === "ArrowUp") return Math.max(current - 1, 0);
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

/** Focuses a row after the scroller has moved and the rows in view are rendered. */
function focusAfterScroll(scroller: Element | null, edge: "first" | "last", container: Element) {
  if (scroller) scroller.scrollTop = edge === "first" ? 0 : scroller.scrollHeight;
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const rows = container.querySelectorAll<HTMLElement>(ROW);
      rows[edge === "first" ? 0 : rows.length - 1]?.focus();
    }),
  );
}

/**
 * Props for each row: `tabIndex` (0 for the row last focused, else the first row), its key, and
 * the keys: ArrowUp/ArrowDown, Home/End move between rows; Enter on the row itself calls `onEnter`.
 */
export function useRowNavigation() {
  const [activeKey, setActiveKey] = useState<string>();
  const rowProps = useCallback(
    (key: string, index: number, onEnter?: () => void) => ({
      "data-row-key": key,
      tabIndex: (activeKey === undefined ? index === 0 : key === activeKey) ? 0 : -1,
      onFocus: (event: { target: EventTarget; currentTarget: HTMLElement }) => {
        if (event.target === event.currentTarget) setActiveKey(key);
      },
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
        const row = event.currentTarget;
        if (event.key === "Enter" && event.target === row && onEnter) {
          event.preventDefault();
          onEnter();
          return;
        }
        const container = row.closest("tbody, [role='rowgroup'], table");
        if (!container) return;
        const rows = [...container.querySelectorAll<HTMLElement>(ROW)];
        const next = rowAfterKey(event.key, rows.length, rows.indexOf(row));
        if (next === null) return;
        event.preventDefault();
        // Home/End mean the first and last loaded rows, which may be outside the rendered window.
        if (event.key === "Home" || event.key === "End") {
          focusAfterScroll(
            row.closest(".vm-scroller"),
            event.key === "Home" ? "first" : "last",
            container,
          );
          return;
        }
        rows[next]?.focus();
      },
    }),
    [activeKey],
  );
  return rowProps;
}

/** What `useRowNavigation` gives one row. */
export type RowNavigation = ReturnType<ReturnType<typeof useRowNavigation>>;
