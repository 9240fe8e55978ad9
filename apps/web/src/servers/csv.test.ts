import { describe, expect, it } from "vitest";
import { buildCsv, csvCell } from "./csv.ts";

describe("csvCell", () => {
  it("quotes commas, quotes and line breaks", () => {
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("plain")).toBe("plain");
  });

  it("neutralises cells that a spreadsheet would run as a formula", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("-2")).toBe("'-2");
  });

  it("writes numbers as they are and null as empty", () => {
    expect(csvCell(-2)).toBe("-2");
    expect(csvCell(null)).toBe("");
  });
});

describe("buildCsv", () => {
  it("joins a header and rows with CRLF", () => {
    expect(
      buildCsv(
        ["name", "cpu"],
        [
          ["web-01", 2],
          ["db, primary", null],
        ],
      ),
    ).toBe('name,cpu\r\nweb-01,2\r\n"db, primary",\r\n');
  });
});
