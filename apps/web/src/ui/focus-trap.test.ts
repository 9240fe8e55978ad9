import { describe, expect, it } from "vitest";
import { wrappedIndex } from "./focus-trap.ts";

describe("the drawer keeps Tab inside itself (docs/behaviour.md §9.49)", () => {
  it("Tab on the last element goes to the first, Shift+Tab on the first to the last", () => {
    expect(wrappedIndex(3, 2, false)).toBe(0);
    expect(wrappedIndex(3, 0, true)).toBe(2);
  });

  it("leaves the moves between its own elements to the browser", () => {
    expect(wrappedIndex(3, 0, false)).toBeNull();
    expect(wrappedIndex(3, 1, false)).toBeNull();
    expect(wrappedIndex(3, 2, true)).toBeNull();
  });

  it("brings focus back in from the panel itself or from outside it", () => {
    expect(wrappedIndex(3, -1, false)).toBe(0);
    expect(wrappedIndex(3, -1, true)).toBe(2);
  });
});
