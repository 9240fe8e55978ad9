// One source's history as a uPlot step chart (docs/behaviour.md §9.50). uPlot draws on a canvas
// and sets its elements' styles through the DOM (el.style), never a style attribute or a <style>
// tag, so the app's Content-Security-Policy needs nothing new. Canvas colours cannot be CSS
// variables, so the theme's are read when the chart is made and it is made again when they change.
import type { ConnectionKind } from "@hyperlens/shared";
import { useEffect, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatCount, formatDateTime } from "../i18n/format.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { useTheme } from "../theme/theme.ts";
import { SourceBadge } from "../ui/badge.tsx";
import { chartColumns, digestOf, type HistoryPoint } from "./history-chart-data.ts";

const HEIGHT = 160;

/** The theme's colour of a token, as the page shows it now. */
function tokenColour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** Re-renders when the system's light or dark preference changes. */
function useSystemScheme(): boolean {
  const query = "(prefers-color-scheme: dark)";
  const [isDark, setDark] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const media = window.matchMedia(query);
    const onChange = () => setDark(media.matches);
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, []);
  return isDark;
}

function chartOptions(width: number, from: Date, to: Date): uPlot.Options {
  const text = tokenColour("--text-muted");
  const grid = tokenColour("--border");
  const line = (label: string, token: string, dash?: number[]): uPlot.Series => ({
    label,
    stroke: tokenColour(token),
    width: 2,
    dash,
    paths: uPlot.paths.stepped?.({ align: 1 }),
    points: { show: false },
  });
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
  return {
    width,
    height: HEIGHT,
    scales: {
      x: { time: true, range: [from.getTime() / 1000, to.getTime() / 1000] },
      y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
    },
    series: [
      {},
      line(t("servers.summary.vms"), "--accent"),
      line(t("servers.summary.containers"), "--source-proxmox-text", [6, 3]),
      line(t("servers.summary.running"), "--ok-text", [2, 2]),
    ],
    axes: [axis, { ...axis, size: 48 }],
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
  };
}

/** A source's chart, with its text alternative: the latest figures and each one's range. */
export function HistoryChart(props: {
  source: ConnectionKind;
  points: readonly HistoryPoint[];
  from: Date;
  to: Date;
}) {
  const locale = currentLanguage();
  const box = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  const isSystemDark = useSystemScheme();
  const { points, from, to } = props;

  useEffect(() => {
    const element = box.current;
    if (!element || points.length === 0) return;
    // The theme is read afresh on every change of either; named so the effect depends on them.
    void theme;
    void isSystemDark;
    const plot = new uPlot(
      chartOptions(element.clientWidth || 600, from, to),
      chartColumns(points, to),
      element,
    );
    const resize = new ResizeObserver(() => {
      if (element.clientWidth) plot.setSize({ width: element.clientWidth, height: HEIGHT });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [points, from, to, theme, isSystemDark]);

  const digest = digestOf(points);
  const count = (value: number) => formatCount(locale, value);
  const titleId = `history-${props.source}`;
  return (
    <figure className="history-chart" aria-labelledby={titleId}>
      <figcaption id={titleId}>
        <SourceBadge source={props.source} />
        <span className="visually-hidden">
          {t("servers.history.chartLabel", { source: t(`source.${props.source}`) })}
        </span>
      </figcaption>
      {points.length > 0 && <div ref={box} className="history-plot" aria-hidden="true" />}
      {digest ? (
        <p className="muted history-text">
          {t("servers.history.latest", {
            at: formatDateTime(locale, digest.latest.at),
            vms: count(digest.latest.vms),
            containers: count(digest.latest.containers),
            running: count(digest.latest.running),
          })}{" "}
          {t("servers.history.span", {
            from: formatDateTime(locale, from.toISOString()),
            to: formatDateTime(locale, to.toISOString()),
            vmsLow: count(digest.low.vms),
            vmsHigh: count(digest.high.vms),
            containersLow: count(digest.low.containers),
            containersHigh: count(digest.high.containers),
            runningLow: count(digest.low.running),
            runningHigh: count(digest.high.running),
          })}
        </p>
      ) : (
        <p className="muted history-text">{t("servers.history.empty")}</p>
      )}
    </figure>
  );
}
