// The table's layout in the URL (docs/behaviour.md §9.45, §9.46): grouping and columns round-trip,
// sit beside the filter without disturbing it, and anything unknown is left out.
import { describe, expect, it } from "vitest";
import { DEFAULT_VISIBLE } from "./columns.ts";
import {
  apiGroupBy,
  dropColumn,
  moveColumn,
  stepToward,
  toggleColumn,
  viewFromParams,
  withViewParams,
} from "./view-params.ts";
import { paramsFromTableQuery, tableQueryFromParams } from "./vm-filter.ts";

describe("the table's layout in the URL", () => {
  it("round-trips the grouping and the columns in their order", () => {
    const params = new URLSearchParams("group=tag&cols=name,state,cpu,source");
    const view = viewFromParams(params);
    expect(view).toEqual({ group: "tag", columns: ["name", "state", "cpu", "source"] });
    expect(withViewParams(new URLSearchParams(), view).toString()).toBe(params.toString());
  });

  it("leaves an unknown grouping and unknown or repeated columns out, and always shows the name", () => {
    expect(viewFromParams(new URLSearchParams("group=planet&cols=cpu,bogus,cpu,state"))).toEqual({
      group: undefined,
      columns: ["name", "cpu", "state"],
    });
  });

  it("names no columns when the URL names none, so the browser's choice applies", () => {
    expect(viewFromParams(new URLSearchParams("q=web")).columns).toBeUndefined();
  });

  it("writes neither no grouping nor the default columns", () => {
    const written = withViewParams(new URLSearchParams("q=web&group=node&cols=name,cpu"), {
      group: undefined,
      columns: [...DEFAULT_VISIBLE],
    });
    expect(written.toString()).toBe("q=web");
  });

  it("keeps the filter's parameters as they are", () => {
    const filter = paramsFromTableQuery(
      tableQueryFromParams(new URLSearchParams("q=db&state=RUNNING&sort=CPU")),
    );
    const both = withViewParams(filter, { group: "cluster", columns: ["name", "ips"] });
    expect(tableQueryFromParams(both)).toEqual(tableQueryFromParams(filter));
    expect(viewFromParams(both)).toEqual({ group: "cluster", columns: ["name", "ips"] });
  });

  it("names each grouping as the API does", () => {
    expect(apiGroupBy("vdc")).toBe("VDC");
    expect(apiGroupBy("source")).toBe("SOURCE");
  });
});

describe("reordering and choosing columns", () => {
  const columns = ["name", "source", "state", "cpu"] as const;

  it("moves a column one place, not past either end", () => {
    expect(moveColumn(columns, "state", -1)).toEqual(["name", "state", "source", "cpu"]);
    expect(moveColumn(columns, "state", 1)).toEqual(["name", "source", "cpu", "state"]);
    expect(moveColumn(columns, "name", -1)).toEqual([...columns]);
    expect(moveColumn(columns, "cpu", 1)).toEqual([...columns]);
  });

  // docs/behaviour.md §9.46: the Columns menu's arrows go the way they point, in Arabic too.
  it("moves toward the side of the screen asked for, whichever way the page reads", () => {
    expect(stepToward("left", "ltr")).toBe(-1);
    expect(stepToward("right", "ltr")).toBe(1);
    expect(stepToward("left", "rtl")).toBe(1);
    expect(stepToward("right", "rtl")).toBe(-1);
  });

  it("puts a dragged column where it is dropped, from either side", () => {
    expect(dropColumn(columns, "cpu", "source")).toEqual(["name", "cpu", "source", "state"]);
    expect(dropColumn(columns, "source", "cpu")).toEqual(["name", "state", "cpu", "source"]);
    expect(dropColumn(columns, "cpu", "cpu")).toEqual([...columns]);
  });

  it("shows a hidden column where the default order puts it, and never hides the name", () => {
    expect(toggleColumn(["name", "cpu"], "state", true)).toEqual(["name", "state", "cpu"]);
    expect(toggleColumn(["cpu", "name"], "lastSeen", true)).toEqual(["cpu", "name", "lastSeen"]);
    expect(toggleColumn(columns, "state", false)).toEqual(["name", "source", "cpu"]);
    expect(toggleColumn(columns, "name", false)).toEqual([...columns]);
  });
});
