// Column widths remembered in the browser (docs/behaviour.md §9.46): what storage gives back is
// checked, clamped, and turned into the table's grid columns.
import { describe, expect, it } from "vitest";
import { columnTemplate, MAX_WIDTH, MIN_WIDTH, parseWidths } from "./local-prefs.ts";

describe("remembered column widths", () => {
  it("reads back widths of known columns, clamped to what a column may be", () => {
    expect(parseWidths('{"name":300,"cpu":5,"ips":99999,"bogus":100,"state":"wide"}')).toEqual({
      name: 300,
      cpu: MIN_WIDTH,
      ips: MAX_WIDTH,
    });
  });

  it("drops what is not JSON or not an object", () => {
    expect(parseWidths("not json")).toEqual({});
    expect(parseWidths("[1,2]")).toEqual({});
    expect(parseWidths(null)).toEqual({});
  });

  it("lays out chosen widths in pixels and the rest as by default, in the columns' order", () => {
    expect(columnTemplate(["cpu", "name", "state"], { name: 250 })).toBe("4.5rem 250px 7rem");
  });
});
