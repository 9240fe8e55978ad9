import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { computeWindow, needsMoreRows } from "./virtual-window.ts";

interface VirtualRowsProps<T> {
  rows: readonly T[];
  rowHeight: number;
  hasMore: boolean;
  onNeedMore: () => void;
  /** Table rows for one item; must be `<tr>` of `rowHeight` pixels. */
  renderRow: (row: T, index: number) => ReactNode;
  /** The `<thead>`. */
  header: ReactNode;
  label: string;
  totalCount: number;
  /** Told the rows [start, end) drawn, whenever they change. */
  onWindowChange?: (start: number, end: number) => void;
}

const OVERSCAN = 8;
/** Pixels: the least height of the scrolling table, and the space left below it. */
const MIN_HEIGHT = 320;
const BOTTOM_GAP = 8;
const LOAD_AHEAD = 40;

/**
 * A scrolling table that renders only the rows in view (padding stands in for the rest) and asks
 * for the next page as the reader nears the loaded end.
 */
export function VirtualRows<T>(props: VirtualRowsProps<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(600);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setViewportHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // The table takes the rest of the window below what the page shows above it, however tall that
  // is: measured after every render (what is above may have grown) and when the window resizes.
  const fit = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    const top = element.getBoundingClientRect().top + globalThis.scrollY;
    const height = `${Math.max(MIN_HEIGHT, Math.floor(globalThis.innerHeight - top - BOTTOM_GAP))}px`;
    if (element.style.height !== height) element.style.height = height;
  }, []);
  useLayoutEffect(fit);
  useEffect(() => {
    globalThis.addEventListener("resize", fit);
    return () => globalThis.removeEventListener("resize", fit);
  }, [fit]);

  const window = computeWindow({
    scrollTop,
    viewportHeight,
    rowHeight: props.rowHeight,
    rowCount: props.rows.length,
    overscan: OVERSCAN,
  });
  const wantsMore = needsMoreRows(window, props.rows.length, props.hasMore, LOAD_AHEAD);
  const { onNeedMore } = props;
  useEffect(() => {
    if (wantsMore) onNeedMore();
  }, [wantsMore, onNeedMore]);
  const { onWindowChange } = props;
  useEffect(() => {
    onWindowChange?.(window.start, window.end);
  }, [window.start, window.end, onWindowChange]);

  return (
    <div
      ref={scroller}
      className="vm-scroller"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <table className="vm-table" aria-label={props.label} aria-rowcount={props.totalCount + 1}>
        {props.header}
        <tbody
          style={{
            height: window.totalHeight,
            paddingTop: window.offsetTop,
          }}
        >
          {props.rows
            .slice(window.start, window.end)
            .map((row, i) => props.renderRow(row, window.start + i))}
        </tbody>
      </table>
    </div>
  );
}
