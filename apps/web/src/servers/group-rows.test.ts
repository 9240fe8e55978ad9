// The grouped table as one virtualised list (docs/behaviour.md §9.45): group headers with their
// counts, an expanded group's loaded rows under it, and one line standing for the rows still to load.
import { describe, expect, it } from "vitest";
import { flattenGroups, groupId, groupsWanting, plainItems } from "./group-rows.ts";

const groups = [
  { key: "pve1", count: 3 },
  { key: "pve2", count: 1 },
  { key: null, count: 2 },
];

describe("flattening groups into table lines", () => {
  it("shows only the headers while every group is collapsed", () => {
    expect(flattenGroups(groups, new Set(), new Map())).toEqual([
      { kind: "group", key: "pve1", count: 3, isExpanded: false },
      { kind: "group", key: "pve2", count: 1, isExpanded: false },
      { kind: "group", key: null, count: 2, isExpanded: false },
    ]);
  });

  it("puts an expanded group's rows under its header, with a line for the rest while it has more", () => {
    const loaded = new Map([
      [groupId("pve1"), { rows: ["a", "b"], hasMore: true }],
      [groupId(null), { rows: ["x", "y"], hasMore: false }],
    ]);
    const expanded = new Set([groupId("pve1"), groupId(null)]);
    expect(flattenGroups(groups, expanded, loaded)).toEqual([
      { kind: "group", key: "pve1", count: 3, isExpanded: true },
      { kind: "row", row: "a", groupKey: "pve1" },
      { kind: "row", row: "b", groupKey: "pve1" },
      { kind: "more", groupKey: "pve1" },
      { kind: "group", key: "pve2", count: 1, isExpanded: false },
      { kind: "group", key: null, count: 2, isExpanded: true },
      { kind: "row", row: "x", groupKey: null },
      { kind: "row", row: "y", groupKey: null },
    ]);
  });

  it("shows an expanded group that has loaded nothing yet as its header and the loading line", () => {
    const items = flattenGroups(groups, new Set([groupId("pve2")]), new Map());
    expect(items.slice(1, 3)).toEqual([
      { kind: "group", key: "pve2", count: 1, isExpanded: true },
      { kind: "more", groupKey: "pve2" },
    ]);
  });

  it("keeps the group of guests with no value apart from a group named like it", () => {
    expect(groupId(null)).not.toBe(groupId(""));
    expect(groupId(null)).not.toBe(groupId("null"));
    const items = flattenGroups(
      [{ key: "", count: 1 }, ...groups],
      new Set([groupId("")]),
      new Map(),
    );
    expect(items.filter((item) => item.kind === "more")).toEqual([{ kind: "more", groupKey: "" }]);
  });

  it("lists an ungrouped table's rows as they are", () => {
    expect(plainItems(["a", "b"])).toEqual([
      { kind: "row", row: "a" },
      { kind: "row", row: "b" },
    ]);
  });
});

describe("which groups load their next page", () => {
  const loaded = new Map([
    [groupId("pve1"), { rows: Array.from({ length: 50 }, (_, i) => i), hasMore: true }],
  ]);
  const items = flattenGroups(groups, new Set([groupId("pve1"), groupId(null)]), loaded);

  it("those whose loading line lies in the lines asked about", () => {
    // pve1's loading line follows its header and 50 rows; the no-value group's follows at the end.
    expect(groupsWanting(items, 0, 20)).toEqual([]);
    expect(groupsWanting(items, 30, 53)).toEqual(["pve1"]);
    expect(groupsWanting(items, 0, items.length)).toEqual(["pve1", null]);
  });

  it("none past the end or before the start", () => {
    expect(groupsWanting(items, -10, 0)).toEqual([]);
    expect(groupsWanting(items, items.length, items.length + 40)).toEqual([]);
  });
});
