// What a saved view of the Servers page may hold (docs/behaviour.md §9.47). The page owns what
// its parameters mean (filters, columns, grouping, sort); a view keeps the query string as the
// page wrote it, so here it is checked only for its shape, by the API and the web app alike.

/** The longest name of a saved view. */
export const SAVED_VIEW_NAME_MAX = 100;
/** The longest query string a saved view keeps (what the page writes is far shorter). */
export const SAVED_VIEW_QUERY_MAX = 2000;
/** The most parameters a saved view keeps. */
export const SAVED_VIEW_PARAMS_MAX = 40;
/**
 * Parameters that are never part of a view: the guest whose drawer is open (`vm`, §9.48) and the
 * saved view being opened (`view`).
 */
export const NOT_IN_VIEW_PARAMS: readonly string[] = ["vm", "view"];

// What URLSearchParams writes: letters, digits, * - . _, percent escapes, + for a space, = and &.
const WRITTEN_BY_PAGE = /^[A-Za-z0-9*\-._%+=&]*$/;
const PARAMETER_NAME = /^[a-z][A-Za-z0-9_-]{0,31}$/;

/** The query string of a view: the page's parameters without those of NOT_IN_VIEW_PARAMS. */
export function viewQueryOf(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const [key, value] of params) if (!NOT_IN_VIEW_PARAMS.includes(key)) kept.append(key, value);
  return kept.toString();
}

/**
 * Why a query string cannot be saved as a view, as a sentence for a person; null when it can.
 * It must be what the Servers page writes: no leading "?", at most SAVED_VIEW_QUERY_MAX
 * characters and SAVED_VIEW_PARAMS_MAX parameters, each `name=value` with a short lower-case name.
 */
export function savedViewQueryProblem(query: string): string | null {
  if (query.length > SAVED_VIEW_QUERY_MAX)
    return `A view's query string has at most ${SAVED_VIEW_QUERY_MAX} characters; this one has ${query.length}.`;
  if (query === "") return null;
  if (!WRITTEN_BY_PAGE.test(query))
    return "Give the query string as the Servers page writes it: name=value pairs joined by &, without ? or #, special characters percent-encoded.";
  const pairs = query.split("&");
  if (pairs.length > SAVED_VIEW_PARAMS_MAX)
    return `A view keeps at most ${SAVED_VIEW_PARAMS_MAX} parameters; this one has ${pairs.length}.`;
  for (const pair of pairs) {
    const [name = "", ...rest] = pair.split("=");
    if (!PARAMETER_NAME.test(name) || rest.length !== 1)
      return `“${pair.slice(0, 40)}” is not a name=value parameter of the Servers page.`;
    if (NOT_IN_VIEW_PARAMS.includes(name))
      return `A view does not keep “${name}”: it names one guest or view, not what the table shows.`;
    try {
      decodeURIComponent(rest[0] ?? "");
    } catch {
      return `The value of “${name}” is not valid percent-encoding.`;
    }
  }
  return null;
}
