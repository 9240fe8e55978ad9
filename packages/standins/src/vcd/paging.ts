/** A page request after validation and capping. */
export interface PageWindow {
  page: number;
  /** The size actually used: the request's, capped at the server's maximum. */
  pageSize: number;
}

/** Parse `page`/`pageSize` (1-based, default 1 and `defaultSize`), capping the size silently. */
export function pageWindow(
  query: URLSearchParams,
  maxPageSize: number,
  defaultSize = 25,
): PageWindow | string {
  const page = positive(query.get("page"), 1);
  const asked = positive(query.get("pageSize"), defaultSize);
  if (page === undefined) return `Bad value for page: ${query.get("page")}`;
  if (asked === undefined) return `Bad value for pageSize: ${query.get("pageSize")}`;
  // TRAP: docs/behaviour.md §4 — Director caps the page without saying so; clients must count what arrived.
  return { page, pageSize: Math.min(asked, maxPageSize) };
}

/** The slice of `items` a window selects, and how many pages there are. */
export function slice<T>(items: T[], window: PageWindow): { items: T[]; pageCount: number } {
  const start = (window.page - 1) * window.pageSize;
  return {
    items: items.slice(start, start + window.pageSize),
    pageCount: Math.ceil(items.length / window.pageSize),
  };
}

function positive(raw: string | null, fallback: number): number | undefined {
  if (raw === null || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= 1 ? value : undefined;
}
