import { describe, expect, it } from "vitest";
import { isFiltered, paramsFromTableQuery, tableQueryFromParams, toggleSort } from "./vm-filter.ts";

describe("table query in the URL", () => {
  it("round-trips search, filters, connection and sort", () => {
    const params = new URLSearchParams(
      "q=10.0.20&source=VCD,PROXMOX&state=RUNNING&connection=Q1&sort=MEMORY&dir=DESC",
    );
    const query = tableQueryFromParams(params);
    expect(query).toEqual({
      filter: {
        search: "10.0.20",
        source: ["VCD", "PROXMOX"],
        state: ["RUNNING"],
        connectionId: ["Q1"],
        isTemplate: false,
      },
      orderBy: { field: "MEMORY", direction: "DESC" },
    });
    expect(paramsFromTableQuery(query).toString()).toBe(params.toString());
  });

  it("drops unknown values and defaults to name ascending", () => {
    expect(tableQueryFromParams(new URLSearchParams("source=XEN&state=ON&sort=DROP"))).toEqual({
      filter: { isTemplate: false },
      orderBy: { field: "NAME", direction: "ASC" },
    });
    expect(
      paramsFromTableQuery({
        filter: { isTemplate: false },
        orderBy: { field: "NAME", direction: "ASC" },
      }).toString(),
    ).toBe("");
  });

  it("leaves templates out unless the URL brings them in (docs/behaviour.md §9.2)", () => {
    expect(tableQueryFromParams(new URLSearchParams("")).filter.isTemplate).toBe(false);
    const withTemplates = tableQueryFromParams(new URLSearchParams("templates=include"));
    expect(withTemplates.filter).toEqual({});
    expect(paramsFromTableQuery(withTemplates).toString()).toBe("templates=include");
  });
});

describe("toggleSort", () => {
  it("flips the direction of the same column and starts a new column ascending", () => {
    expect(toggleSort({ field: "CPU", direction: "ASC" }, "CPU")).toEqual({
      field: "CPU",
      direction: "DESC",
    });
    expect(toggleSort({ field: "CPU", direction: "DESC" }, "NAME")).toEqual({
      field: "NAME",
      direction: "ASC",
    });
  });
});

describe("isFiltered", () => {
  it("is false only when nothing narrows the list", () => {
    expect(isFiltered({})).toBe(false);
    expect(isFiltered({ isTemplate: false })).toBe(false);
    expect(isFiltered({ search: "web" })).toBe(true);
  });
});
