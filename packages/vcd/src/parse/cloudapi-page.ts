import { z } from "zod";

/** The paging fields of a CloudAPI list. `pageCount` is missing on some endpoints (a known API bug). */
export interface CloudApiPaging {
  page: number | null;
  pageSize: number | null;
  pageCount: number | null;
  resultTotal: number | null;
}

const count = z.number().int().nonnegative().nullish().catch(null);

/**
 * The schema of a CloudAPI list page (`resultTotal`, `pageCount`, `page`, `pageSize`, `values`)
 * whose values are `item`. A wrong `values` fails the page; a wrong count reads as unknown.
 */
export function cloudApiPageSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    page: count,
    pageSize: count,
    pageCount: count,
    resultTotal: count,
    values: z.array(item),
  });
}

/** The paging fields of a parsed page, each null when missing. */
export function pagingOf(page: {
  page?: number | null;
  pageSize?: number | null;
  pageCount?: number | null;
  resultTotal?: number | null;
}): CloudApiPaging {
  return {
    page: page.page ?? null,
    pageSize: page.pageSize ?? null,
    pageCount: page.pageCount ?? null,
    resultTotal: page.resultTotal ?? null,
  };
}
