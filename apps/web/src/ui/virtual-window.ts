// Which rows of a long list to render for a scroll position: only the visible ones plus a margin,
// so 50,000 rows cost as much to draw as 40.

/** The inputs of a window computation, in pixels and rows. */
export interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  rowCount: number;
  overscan: number;
}

/** Rows [start, end) to render, and the space above them and in total. */
export interface RowWindow {
  start: number;
  end: number;
  offsetTop: number;
  totalHeight: number;
}

/** Computes the rendered window, clamped to the rows that exist. */
export function computeWindow(input: WindowInput): RowWindow {
  const { rowHeight, rowCount, overscan } = input;
  const totalHeight = rowCount * rowHeight;
  const scrollTop = Math.min(Math.max(0, input.scrollTop), Math.max(0, totalHeight));
  const firstVisible = Math.floor(scrollTop / rowHeight);
  const lastVisible = Math.ceil((scrollTop + Math.max(0, input.viewportHeight)) / rowHeight);
  const start = Math.max(0, Math.min(rowCount, firstVisible - overscan));
  const end = Math.max(start, Math.min(rowCount, lastVisible + overscan));
  return { start, end, offsetTop: start * rowHeight, totalHeight };
}

/** True when the window comes within `threshold` rows of the loaded end and more exist. */
export function needsMoreRows(
  window: RowWindow,
  loadedCount: number,
  hasMore: boolean,
  threshold: number,
): boolean {
  return hasMore && window.end + threshold >= loadedCount;
}
