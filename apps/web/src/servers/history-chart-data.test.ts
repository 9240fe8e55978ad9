import { describe, expect, it } from "vitest";
import { chartColumns, digestOf, rangeEndingAt } from "./history-chart-data.ts";

const point = (at: string, vms: number, containers: number, running: number) => ({
  at,
  vms,
  containers,
  running,
});

describe("history chart data (docs/behaviour.md §9.50)", () => {
  it("puts every point in uPlot's columns, in seconds, and carries the last figures to the end", () => {
    const points = [
      point("2026-01-01T00:00:00.000Z", 10, 2, 8),
      point("2026-01-01T01:00:00.000Z", 12, 2, 9),
    ];
    const epoch = Date.parse("2026-01-01T00:00:00.000Z") / 1000;
    expect(chartColumns(points, new Date("2026-01-01T03:00:00.000Z"))).toEqual([
      [epoch, epoch + 3600, epoch + 3 * 3600],
      [10, 12, 12],
      [2, 2, 2],
      [8, 9, 9],
    ]);
  });

  it("adds no end point when the last point is the end, and none to an empty series", () => {
    const points = [point("2026-01-01T00:00:00.000Z", 1, 0, 1)];
    expect(chartColumns(points, new Date("2026-01-01T00:00:00.000Z"))[0]).toHaveLength(1);
    expect(chartColumns([], new Date())).toEqual([[], [], [], []]);
  });

  it("digests the latest figures and each figure's lowest and highest", () => {
    const digest = digestOf([
      point("2026-01-01T00:00:00.000Z", 10, 3, 8),
      point("2026-01-01T01:00:00.000Z", 14, 1, 9),
      point("2026-01-01T02:00:00.000Z", 12, 2, 7),
    ]);
    expect(digest).toEqual({
      latest: point("2026-01-01T02:00:00.000Z", 12, 2, 7),
      low: { vms: 10, containers: 1, running: 7 },
      high: { vms: 14, containers: 3, running: 9 },
    });
    expect(digestOf([])).toBeUndefined();
  });

  it("a range ends now and starts its hours before", () => {
    const now = new Date("2026-01-08T00:00:00.000Z");
    expect(rangeEndingAt(168, now)).toEqual({
      from: new Date("2026-01-01T00:00:00.000Z"),
      to: now,
    });
  });
});
