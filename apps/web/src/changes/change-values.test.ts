import { describe, expect, it } from "vitest";
import { fieldChanges, removalReason, valueText } from "./change-values.ts";

describe("what changed, as text (docs/behaviour.md §9.51)", () => {
  it("lists each field with its values, by field name", () => {
    expect(
      fieldChanges({ state: { from: "RUNNING", to: "STOPPED" }, cpuCount: { from: null, to: 4 } }),
    ).toEqual([
      ["cpuCount", "—", "4"],
      ["state", "RUNNING", "STOPPED"],
    ]);
    expect(fieldChanges(null)).toEqual([]);
  });

  it("cuts long values and writes others as JSON", () => {
    expect(valueText(["a", "b"])).toBe('["a","b"]');
    expect(valueText("x".repeat(200))).toHaveLength(80);
  });

  it("reads a removal's reason", () => {
    expect(removalReason({ reason: "not in the list" })).toBe("not in the list");
    expect(removalReason({})).toBeUndefined();
  });
});
