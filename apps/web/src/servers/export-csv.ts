import type { Client } from "urql";
import { serversCsv } from "./servers-csv.ts";
import { PAGE_SIZE, VM_PAGE, type VmPage } from "./use-vm-pages.ts";
import type { TableQuery } from "./vm-filter.ts";
import type { VmRow } from "./vm-row.ts";

/** Pages through every row of the current filter and returns it as CSV (every column and the kind, raw values). */
export async function fetchCsv(
  client: Client,
  query: TableQuery,
  onProgress: (done: number, total: number) => void,
): Promise<string> {
  const rows: VmRow[] = [];
  let after: string | null = null;
  do {
    const result: { data?: VmPage; error?: { message: string } } = await client
      .query(
        VM_PAGE,
        { first: PAGE_SIZE, after, filter: query.filter, orderBy: [query.orderBy] },
        { requestPolicy: "network-only" },
      )
      .toPromise();
    const page = result.data?.virtualMachines;
    if (!page) throw new Error(result.error?.message ?? "export failed");
    rows.push(...page.edges.map((e) => e.node));
    onProgress(rows.length, page.totalCount);
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  return serversCsv(rows);
}

/** Offers text as a file download. */
export function downloadText(filename: string, text: string, type = "text/csv;charset=utf-8") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
