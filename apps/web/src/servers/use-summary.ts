import { useEffect, useState } from "react";
import { useClient } from "urql";
import type { PageInfo } from "../graphql/types.ts";
import {
  buildFigures,
  SUM_LIMIT,
  SUMMARY_COUNTS,
  SUMMARY_SUMS,
  type SummaryCountsResult,
  type SumRow,
} from "./summary-figures.ts";

type Summary = ReturnType<typeof buildFigures>;

interface SumsPage {
  virtualMachines: { pageInfo: PageInfo; edges: { node: SumRow }[] };
}

/** Loads the header figures; `reloadKey` refreshes them (after a sync). */
export function useSummary(reloadKey: number): Summary | undefined {
  const client = useClient();
  const [summary, setSummary] = useState<Summary>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey is the reason to reload
  useEffect(() => {
    let isCurrent = true;
    const load = async () => {
      const counts = await client
        .query<SummaryCountsResult>(SUMMARY_COUNTS, {}, { requestPolicy: "network-only" })
        .toPromise();
      if (!counts.data || !isCurrent) return;
      const first = buildFigures(counts.data, undefined);
      setSummary(first);
      if (first.total.vms + first.total.containers > SUM_LIMIT) return;
      const rows: SumRow[] = [];
      let after: string | null = null;
      do {
        const page: { data?: SumsPage } = await client
          .query<SumsPage>(SUMMARY_SUMS, { after }, { requestPolicy: "network-only" })
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
