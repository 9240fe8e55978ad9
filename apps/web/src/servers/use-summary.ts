import { useEffect, useState } from "react";
import { useClient } from "urql";
import {
  buildFigures,
  SUM_LIMIT,
  SUM_PAGE_SIZE,
  SUMMARY_COUNTS,
  SUMMARY_SUMS,
  type SumRow,
  type SumsPage,
} from "./summary-figures.ts";

type Summary = ReturnType<typeof buildFigures>;

/** Loads the header figures; `reloadKey` refreshes them (after a sync). */
export function useSummary(reloadKey: number): Summary | undefined {
  const client = useClient();
  const [summary, setSummary] = useState<Summary>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey is the reason to reload
  useEffect(() => {
    let isCurrent = true;
    const load = async () => {
      const counts = await client
        .query(SUMMARY_COUNTS, {}, { requestPolicy: "network-only" })
        .toPromise();
      if (!counts.data || !isCurrent) return;
      const first = buildFigures(counts.data, undefined);
      setSummary(first);
      if (first.total.vms + first.total.containers > SUM_LIMIT) return;
      const rows: SumRow[] = [];
      let after: string | null = null;
      do {
        const page: { data?: SumsPage } = await client
          .query(SUMMARY_SUMS, { first: SUM_PAGE_SIZE, after }, { requestPolicy: "network-only" })
          .toPromise();
        if (!page.data || !isCurrent) return;
        rows.push(...page.data.virtualMachines.edges.map((e) => e.node));
        after = page.data.virtualMachines.pageInfo.hasNextPage
          ? page.data.virtualMachines.pageInfo.endCursor
          : null;
      } while (after);
      setSummary(buildFigures(counts.data, rows));
    };
    void load();
    return () => {
      isCurrent = false;
    };
  }, [client, reloadKey]);
  return summary;
}
