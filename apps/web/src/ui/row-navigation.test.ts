import { describe, expect, it } from "vitest";
import { rowAfterKey } from "./row-navigation.ts";

describe("arrow keys between table rows (docs/behaviour.md §9.49)", () => {
  it("ArrowDown and ArrowUp move one row and stop at either end", () => {
    expect(rowAfterKey("ArrowDown", 5, 1)).toBe(2);
    expect(rowAfterKey("ArrowUp", 5, 1)).toBe(0);
    expect(rowAfterKey("ArrowDown", 5, 4)).toBe(4);
    expect(rowAfterKey("ArrowUp", 5, 0)).toBe(0);
  });

  it("Home and End go to the first and last row", () => {
    expect(rowAfterKey("Home", 5, 3)).toBe(0);
    expect(rowAfterKey("End", 5, 1)).toBe(4);
  });

  it("ignores other keys and an empty table", () => {
    expect(rowAfterKey("a", 5, 1)).toBeNull();
    expect(rowAfterKey("ArrowDown", 0, -1)).toBeNull();
  });
});
