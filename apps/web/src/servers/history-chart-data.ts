// Turning a source's history (docs/behaviour.md §9.50) into what uPlot draws and what a screen
// reader is told instead: pure, so it is tested without a canvas.

/** A source's figures at one instant, as the API sends them. */
export interface HistoryPoint {
  at: string;
  vms: number;
  containers: number;
  running: number;
}

/** uPlot's columns: seconds since the epoch, then VMs, containers and running guests. */
export type ChartColumns = [number[], number[], number[], number[]];

/** The ranges the charts offer, in hours. */
export const HISTORY_RANGES = [24, 168, 720] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

/** The instants a range covers, ending now. */
export function rangeEndingAt(hours: HistoryRange, now: Date): { from: Date; to: Date } {
  return { from: new Date(now.getTime() - hours * 3_600_000), to: now };
}

/**
 * The columns of a step chart: each point from the API, and the last figures carried to `to`,
 * since a figure holds until the next sample changes it.
 */
export function chartColumns(points: readonly HistoryPoint[], to: Date): ChartColumns {
  const columns: ChartColumns = [[], [], [], []];
  const push = (seconds: number, p: HistoryPoint) => {
    columns[0].push(seconds);
    columns[1].push(p.vms);
    columns[2].push(p.containers);
    columns[3].push(p.running);
  };
  for (const point of points) push(Date.parse(point.at) / 1000, point);
  const last = points.at(-1);
  const end = to.getTime() / 1000;
  if (last && Date.parse(last.at) / 1000 < end) push(end, last);
  return columns;
}

/** What the text alternative says: the latest figures and the lowest and highest over the range. */
export interface HistoryDigest {
  latest: HistoryPoint;
  low: Omit<HistoryPoint, "at">;
  high: Omit<HistoryPoint, "at">;
}

/** The digest of a series; undefined when it has no point. */
export function digestOf(points: readonly HistoryPoint[]): HistoryDigest | undefined {
  const latest = points.at(-1);
  if (!latest) return undefined;
  const fields = ["vms", "containers", "running"] as const;
  const pick = (choose: (...values: number[]) => number) =>
    Object.fromEntries(fields.map((f) => [f, choose(...points.map((p) => p[f]))])) as Omit<
      HistoryPoint,
      "at"
    >;
  return { latest, low: pick(Math.min), high: pick(Math.max) };
}
