/** The Servers page's address for a query string (without "?"; empty: no "?" at all). */
export function serversPath(query: string): string {
  return `/servers${query ? `?${query}` : ""}`;
}
