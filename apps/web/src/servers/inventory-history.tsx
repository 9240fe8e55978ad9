// The Servers page's history (docs/behaviour.md §9.50): a chart per source over a chosen period,
// reloaded after each sync, and the way to "What changed" (§9.51).
import { useEffect, useState } from "react";
import { useClient } from "urql";
import { graphql, type ResultOf } from "../graphql/graphql.ts";
import { t } from "../i18n/i18n.ts";
import { useSync } from "../sync/sync-context.tsx";
import { HistoryChart } from "./history-chart.tsx";
import { HISTORY_RANGES, type HistoryRange, rangeEndingAt } from "./history-chart-data.ts";

const HISTORY = graphql(`
  query InventoryHistory($from: DateTime!, $to: DateTime!) {
    inventoryHistory(from: $from, to: $to) { source points { at vms containers running } }
  }
`);

type Series = ResultOf<typeof HISTORY>["inventoryHistory"];

const RANGE_LABELS = {
  24: "servers.history.range24h",
  168: "servers.history.range7d",
  720: "servers.history.range30d",
} as const satisfies Record<HistoryRange, string>;

/** The charts, one per source the viewer has a connection of. */
export function InventoryHistory() {
  const client = useClient();
  const { settledCount } = useSync();
  const [hours, setHours] = useState<HistoryRange>(168);
  const [loaded, setLoaded] = useState<{ series: Series; from: Date; to: Date }>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a finished sync adds a point
  useEffect(() => {
    let isCurrent = true;
    const { from, to } = rangeEndingAt(hours, new Date());
    void client
      .query(
        HISTORY,
        { from: from.toISOString(), to: to.toISOString() },
        { requestPolicy: "network-only" },
      )
      .toPromise()
      .then((result) => {
        if (isCurrent && result.data) setLoaded({ series: result.data.inventoryHistory, from, to });
      });
    return () => {
      isCurrent = false;
    };
  }, [client, hours, settledCount]);

  if (!loaded?.series.length) return null;
  return (
    <section className="history" aria-labelledby="history-title">
      <div className="history-head">
        <h2 id="history-title">{t("servers.history.title")}</h2>
        <fieldset className="history-ranges">
          <legend className="visually-hidden">{t("servers.history.period")}</legend>
          {HISTORY_RANGES.map((range) => (
            <button
              key={range}
              type="button"
              aria-pressed={range === hours}
              onClick={() => setHours(range)}
            >
              {t(RANGE_LABELS[range])}
            </button>
          ))}
        </fieldset>
      </div>
      <div className="history-charts">
        {loaded.series.map((series) => (
          <HistoryChart
            key={series.source}
            source={series.source}
            points={series.points}
            from={loaded.from}
            to={loaded.to}
          />
        ))}
      </div>
    </section>
  );
}
