import { describe, expect, it } from "vitest";
import { computeWindow, needsMoreRows } from "./virtual-window.ts";

const base = { rowHeight: 36, viewportHeight: 360, overscan: 5 };

describe("computeWindow", () => {
  it("renders the visible rows plus overscan below at the top", () => {
    expect(computeWindow({ ...base, scrollTop: 0, rowCount: 50_000 })).toEqual({
      start: 0,
      end: 15,
      offsetTop: 0,
      totalHeight: 1_800_000,
    });
  });

  it("renders a constant number of rows deep inside 50,000", () => {
    const w = computeWindow({ ...base, scrollTop: 36 * 30_000 + 10, rowCount: 50_000 });
    expect(w.start).toBe(29_995);
    expect(w.end).toBe(30_016);
    expect(w.offsetTop).toBe(29_995 * 36);
  });

  it("clamps to the rows that exist when scrolled past the end or above the top", () => {
    expect(computeWindow({ ...base, scrollTop: 99_999, rowCount: 20 })).toMatchObject({
      start: 15,
      end: 20,
    });
    expect(computeWindow({ ...base, scrollTop: -50, rowCount: 20 })).toMatchObject({ start: 0 });
  });

  it("renders nothing for an empty list", () => {
    expect(computeWindow({ ...base, scrollTop: 0, rowCount: 0 })).toEqual({
      start: 0,
      end: 0,
      offsetTop: 0,
      totalHeight: 0,
    });
  });
});

describe("needsMoreRows", () => {
  const w = { start: 60, end: 90, offsetTop: 0, totalHeight: 0 };
  it("asks for the next page when the window nears the loaded end", () => {
    expect(needsMoreRows(w, 100, true, 20)).toBe(true);
    expect(needsMoreRows(w, 200, true, 20)).toBe(false);
  });
  it("never asks when the server has no more", () => {
    expect(needsMoreRows(w, 100, false, 20)).toBe(false);
  });
});
