import { describe, expect, it } from "vitest";
import {
  isFiltered,
  kindsOf,
  paramsFromTableQuery,
  tableQueryFromParams,
  toggleSort,
  withKinds,
} from "./vm-filter.ts";

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

describe("every filter in the URL (docs/behaviour.md §9.43)", () => {
  it("round-trips each filter of the bar", () => {
    const params = new URLSearchParams(
      "q=10.10.0.0%2F24&source=VCENTER&state=STOPPED&kind=CONTAINER&connection=Q1%2CQ2" +
        "&confirmation=LIST_FAILED%2CNOT_CONFIRMED&tag=web&tag=a%2Cb&node=pve1&cluster=gold" +
        "&datacenter=DC1&host=esx01&org=Acme&vdc=vdc1&os=Debian&removed=include&sort=LOCATION",
    );
    const query = tableQueryFromParams(params);
    expect(query).toEqual({
      filter: {
        search: "10.10.0.0/24",
        source: ["VCENTER"],
        state: ["STOPPED"],
        kind: ["CONTAINER"],
        isTemplate: false,
        connectionId: ["Q1", "Q2"],
        confirmation: ["LIST_FAILED", "NOT_CONFIRMED"],
        tags: ["web", "a,b"],
        nodeName: "pve1",
        clusterName: "gold",
        datacenterName: "DC1",
        hostName: "esx01",
        orgName: "Acme",
        vdcName: "vdc1",
        guestOs: "Debian",
        includeRemoved: true,
      },
      orderBy: { field: "LOCATION", direction: "ASC" },
    });
    expect(tableQueryFromParams(paramsFromTableQuery(query))).toEqual(query);
    expect(paramsFromTableQuery(query).toString()).toBe(params.toString());
  });

  it("ignores unknown kinds, confirmations and empty values", () => {
    expect(
      tableQueryFromParams(
        new URLSearchParams("kind=LPAR&confirmation=MAYBE&node=&tag=&removed=yes"),
      ).filter,
    ).toEqual({ isTemplate: false });
  });

  it.each([
    [[], { isTemplate: false }, ""],
    [["VM"], { kind: ["VM"], isTemplate: false }, "kind=VM"],
    [["TEMPLATE"], { isTemplate: true }, "kind=TEMPLATE"],
    [["CONTAINER", "TEMPLATE"], { kind: ["CONTAINER"] }, "kind=CONTAINER%2CTEMPLATE"],
    [["VM", "CONTAINER", "TEMPLATE"], {}, "templates=include"],
  ] as const)("kinds %j are the filter %j and the URL %s", (kinds, filter, url) => {
    const chosen = withKinds({}, kinds);
    expect(chosen).toEqual(filter);
    expect(
      paramsFromTableQuery({
        filter: chosen,
        orderBy: { field: "NAME", direction: "ASC" },
      }).toString(),
    ).toBe(url);
    expect(tableQueryFromParams(new URLSearchParams(url)).filter).toEqual(filter);
    expect(new Set(kindsOf(chosen))).toEqual(new Set(kinds));
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
    expect(isFiltered({ isTemplate: true })).toBe(true);
    expect(isFiltered({ tags: ["web"] })).toBe(true);
    expect(isFiltered({ hostName: "esx01" })).toBe(true);
    expect(isFiltered({ confirmation: ["NOT_CONFIRMED"] })).toBe(true);
  });
});
