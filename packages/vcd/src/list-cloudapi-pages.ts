import type { CloudApiPaging } from "./parse/cloudapi-page.ts";
import { malformed } from "./parse/malformed.ts";

/** One page of a CloudAPI list as read: its paging fields and whether `Link` named a next page. */
export type CloudApiPageRead = CloudApiPaging & { hasNextPageLink: boolean };

/** Every item of a CloudAPI list, and whether the read is known complete. */
export interface CloudApiListing<T> {
  items: T[];
  resultTotal: number | null;
  pages: number;
  isComplete: boolean;
  reason?: string;
}

/** What is listed: the call (for errors), the noun (for the incompleteness reason), the items. */
export interface CloudApiListKind<P, T> {
  path: string;
  noun: string;
  itemsOf: (page: P) => T[];
  idOf: (item: T) => string;
}

const MAX_PAGES = 10_000;

/**
 * Reads every page: as many as `pageCount` says, or `resultTotal / pageSize` when an endpoint
 * omits the count (a known API bug), and on while a `Link: rel="nextPage"` header is sent.
 * An empty page ends the read; an item repeated on a later page counts once. A failed page rejects.
 */
export async function listCloudApiPages<P extends CloudApiPageRead, T>(
  readPage: (page: number) => Promise<P>,
  kind: CloudApiListKind<P, T>,
): Promise<CloudApiListing<T>> {
  const byId = new Map<string, T>();
  let resultTotal: number | null = null;
  let pages = 0;
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) throw malformed(`GET ${kind.path}`, `no end after ${MAX_PAGES} pages`);
    const answer = await readPage(page);
    pages = page;
    resultTotal = answer.resultTotal ?? resultTotal;
    const items = kind.itemsOf(answer);
    if (items.length === 0) break;
    for (const item of items) if (!byId.has(kind.idOf(item))) byId.set(kind.idOf(item), item);
    const computed =
      answer.resultTotal !== null && answer.pageSize
        ? Math.ceil(answer.resultTotal / answer.pageSize)
        : null;
    const lastPage = answer.pageCount ?? computed ?? page;
    // TRAP: docs/behaviour.md §4 — read every page the API reports; stopping at page 1 would "remove" the rest.
    if (page >= lastPage && !answer.hasNextPageLink) break;
  }
  const items = [...byId.values()];
  if (resultTotal !== null && items.length < resultTotal) {
    return {
      items,
      resultTotal,
      pages,
      isComplete: false,
      reason: `Cloud Director reported ${resultTotal} ${kind.noun} but ${items.length} arrived in ${pages} pages`,
    };
  }
  return { items, resultTotal, pages, isComplete: true };
}
