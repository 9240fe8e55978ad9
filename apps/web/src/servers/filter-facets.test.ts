// docs/behaviour.md §9.43: the filter bar offers every filter of the API, each value it adds is in
// the filter (and so in the URL), and removing a chip removes that filter only.
import { describe, expect, it } from "vitest";
import { chosenLabel, FACETS, type FacetContext } from "./filter-facets.ts";
import { paramsFromTableQuery, tableQueryFromParams, type VmFilter } from "./vm-filter.ts";

const CONTEXT: FacetContext = {
  connections: [
    { id: "Q1", name: "pve-lab" },
    { id: "Q2", name: "vc-prod" },
  ],
  values: {
    node: ["pve1"],
    cluster: ["gold"],
    datacenter: ["DC1"],
    host: ["esx01"],
    org: ["Acme"],
    vdc: ["vdc1"],
    os: ["Debian 12"],
    tag: ["web"],
  },
};
const facet = (id: string) => {
  const found = FACETS.find((f) => f.id === id);
  if (!found) throw new Error(`no facet ${id}`);
  return found;
};
const viaUrl = (filter: VmFilter) =>
  tableQueryFromParams(
    paramsFromTableQuery({ filter, orderBy: { field: "NAME", direction: "ASC" } }),
  ).filter;

describe("the filter bar's filters", () => {
  it("cover every filter of VirtualMachineFilter but the search box and changedSince", () => {
    const all: VmFilter = FACETS.reduce<VmFilter>(
      (filter, f) => {
        const first = f.options(CONTEXT)[0];
        if (!first) throw new Error(`${f.id} offers nothing`);
        return f.add(filter, first.value);
        // The page's default: machines, no templates.
      },
      { isTemplate: false },
    );
    expect(Object.keys(all).sort()).toEqual(
      [
        "clusterName",
        "confirmation",
        "connectionId",
        "datacenterName",
        "guestOs",
        "hostName",
        "includeRemoved",
        "isTemplate",
        "kind",
        "nodeName",
        "orgName",
        "source",
        "state",
        "tags",
        "vdcName",
      ].sort(),
    );
  });

  it.each(FACETS.map((f) => [f.id]))(
    "%s: a value added survives the URL and its chip removes it",
    (id) => {
      const f = facet(id);
      const value = f.options(CONTEXT).at(-1)?.value ?? "";
      const base: VmFilter = { search: "web", isTemplate: false };
      const added = viaUrl(f.add(base, value));
      expect(f.chosen(added)).toContain(value);
      const cleared = f.clear(added);
      expect(f.chosen(cleared)).toEqual([]);
      expect(cleared.search).toBe("web");
    },
  );

  it("lists take several values; one-value filters replace theirs", () => {
    const connection = facet("connection");
    const two = connection.add(connection.add({}, "Q1"), "Q2");
    expect(two.connectionId).toEqual(["Q1", "Q2"]);
    const node = facet("node");
    expect(node.add(node.add({}, "pve1"), "pve2").nodeName).toBe("pve2");
  });

  it("chips read as the values are named", () => {
    expect(chosenLabel(facet("connection"), "Q2", CONTEXT)).toBe("vc-prod");
    expect(chosenLabel(facet("state"), "STOPPED", CONTEXT)).toBe("Stopped");
    expect(chosenLabel(facet("node"), "pve9", CONTEXT)).toBe("pve9");
  });
});
