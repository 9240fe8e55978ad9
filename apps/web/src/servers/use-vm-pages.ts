import { useCallback, useEffect, useRef, useState } from "react";
import { type Client, useClient } from "urql";
import { graphql, type ResultOf } from "../graphql/graphql.ts";
import type { TableQuery } from "./vm-filter.ts";
import { type VmRow, VmRowFields } from "./vm-row.ts";

/** Rows per page. The API's cost limit (10,000) admits about 80 rows with these fields. */
export const PAGE_SIZE = 80;

export const VM_PAGE = graphql(
  `
  query VmPage(
    $first: Int!
    $after: String
    $filter: VirtualMachineFilter
    $orderBy: [VirtualMachineOrder!]
  ) {
    virtualMachines(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { ...VmRowFields } }
    }
  }
`,
  [VmRowFields],
);

/** One page of rows as the API answers it. */
export type VmPage = ResultOf<typeof VM_PAGE>;
type PageInfo = VmPage["virtualMachines"]["pageInfo"];

/** One page of `query` after the cursor `after`: the page, or the error's message. */
export async function fetchVmPage(
  client: Client,
  query: TableQuery,
  after: string | null,
): Promise<{ page?: VmPage["virtualMachines"]; error?: string }> {
  const result = await client
    .query(
      VM_PAGE,
      { first: PAGE_SIZE, after, filter: query.filter, orderBy: [query.orderBy] },
      { requestPolicy: "network-only" },
    )
    .toPromise();
  const page = result.data?.virtualMachines;
  return page ? { page } : { error: result.error?.message ?? "" };
}

/** What the table has loaded so far for one query. */
export interface VmPages {
  rows: VmRow[];
  totalCount: number | undefined;
  hasMore: boolean;
  isLoading: boolean;
  error: string | undefined;
  loadMore: () => void;
}

/**
 * Loads the table's rows page by page with server-side cursors. A new query (or `reloadKey`)
 * starts over; answers for an older query are dropped.
 */
export function useVmPages(query: TableQuery, reloadKey: number): VmPages {
  const client = useClient();
  const [rows, setRows] = useState<VmRow[]>([]);
  const [totalCount, setTotalCount] = useState<number>();
  const [pageInfo, setPageInfo] = useState<PageInfo>({ hasNextPage: false, endCursor: null });
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const generation = useRef(0);
  const inFlight = useRef(false);
  const key = JSON.stringify(query);

  const fetchPage = useCallback(
    async (after: string | null, forGeneration: number) => {
      inFlight.current = true;
      setLoading(true);
      const { page, error } = await fetchVmPage(client, JSON.parse(key) as TableQuery, after);
      if (forGeneration !== generation.current) return;
      inFlight.current = false;
      setLoading(false);
      if (!page) {
        setError(error);
        return;
      }
      setError(undefined);
      setTotalCount(page.totalCount);
      setPageInfo(page.pageInfo);
      const nodes = page.edges.map((edge) => edge.node);
      setRows((previous) => (after ? [...previous, ...nodes] : nodes));
    },
    [client, key],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey is the reason to start over
  useEffect(() => {
    generation.current++;
    setRows([]);
    setTotalCount(undefined);
    setPageInfo({ hasNextPage: false, endCursor: null });
    void fetchPage(null, generation.current);
  }, [fetchPage, reloadKey]);

  const loadMore = useCallback(() => {
    if (inFlight.current || !pageInfo.hasNextPage) return;
    void fetchPage(pageInfo.endCursor, generation.current);
  }, [fetchPage, pageInfo]);

  return { rows, totalCount, hasMore: pageInfo.hasNextPage, isLoading, error, loadMore };
}
