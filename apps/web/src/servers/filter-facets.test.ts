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

  // docs/behaviour.md §9.43: a chip of several values takes each off on its own.
  it.each([["source"], ["connection"], ["state"], ["kind"], ["tag"], ["confirmation"]])(
    "%s: one of several values is removed alone, the last one removes the filter",
    (id) => {
      const f = facet(id);
      // Kind: VM and container together are the default (no kind chosen), so not these two.
      const values =
        id === "tag"
          ? ["web", "db"]
          : id === "kind"
            ? ["CONTAINER", "TEMPLATE"]
            : f.options(CONTEXT).map((o) => o.value);
      const [first, second] = values as [string, string];
      const base: VmFilter = { search: "web", isTemplate: false };
      const both = viaUrl(f.add(f.add(base, first), second));
      expect(f.chosen(both)).toEqual(expect.arrayContaining([first, second]));
      const one = viaUrl(f.remove(both, first));
      expect(f.chosen(one)).not.toContain(first);
      expect(f.chosen(one)).toContain(second);
      expect(one.search).toBe("web");
      expect(f.chosen(viaUrl(f.remove(one, second)))).toEqual([]);
    },
  );

  it("the kind chip lets through the kinds left: templates come and go on their own", () => {
    const kind = facet("kind");
    const all = ["VM", "CONTAINER", "TEMPLATE"].reduce((f, k) => kind.add(f, k), {} as VmFilter);
    expect(kind.chosen(all).sort()).toEqual(["CONTAINER", "TEMPLATE", "VM"]);
    const noContainers = viaUrl(kind.remove(all, "CONTAINER"));
    expect(kind.chosen(noContainers).sort()).toEqual(["TEMPLATE", "VM"]);
    const vmsOnly = viaUrl(kind.remove(noContainers, "TEMPLATE"));
    expect(vmsOnly).toMatchObject({ kind: ["VM"], isTemplate: false });
    const templatesOnly = viaUrl(kind.remove(noContainers, "VM"));
    expect(templatesOnly).toMatchObject({ isTemplate: true });
    expect(templatesOnly.kind).toBeUndefined();
  });

  it("chips read as the values are named", () => {
    expect(chosenLabel(facet("connection"), "Q2", CONTEXT)).toBe("vc-prod");
    expect(chosenLabel(facet("state"), "STOPPED", CONTEXT)).toBe("Stopped");
    expect(chosenLabel(facet("node"), "pve9", CONTEXT)).toBe("pve9");
  });
});
