import { describe, expect, it } from "vitest";
import { locationText } from "./location-text.ts";
import { csvFileName, serversCsv } from "./servers-csv.ts";
import type { VmRow } from "./vm-row.ts";

const noLocation = {
  nodeName: null,
  clusterName: null,
  datacenterName: null,
  hostName: null,
  orgName: null,
  vdcName: null,
  vappName: null,
};

function row(overrides: Partial<VmRow>): VmRow {
  return {
    id: "1",
    name: "web-01",
    source: "VCENTER",
    kind: "VM",
    isTemplate: false,
    state: "RUNNING",
    cpuCount: 2,
    memoryBytes: 1024,
    diskTotalBytes: null,
    lastSeenAt: "2026-12-06T00:00:00.000Z",
    confirmation: "CONFIRMED",
    location: noLocation,
    ipAddresses: [],
    connection: { id: "c", name: "vc" },
    ...overrides,
  } as VmRow;
}

const parse = (csv: string) =>
  csv
    .trimEnd()
    .split("\r\n")
    .map((line) => line.split(","));

describe("the Servers CSV", () => {
  it("has a kind column after the name: VM, CONTAINER or TEMPLATE", () => {
    const [header, vm, container, template] = parse(
      serversCsv([
        row({ name: "vm" }),
        row({ name: "ct", source: "PROXMOX", kind: "CONTAINER" }),
        row({ name: "tpl", isTemplate: true }),
      ]),
    );
    expect(header?.slice(0, 3)).toEqual(["name", "kind", "source"]);
    expect([vm?.[1], container?.[1], template?.[1]]).toEqual(["VM", "CONTAINER", "TEMPLATE"]);
  });

  it("orders a vCenter location as the page does: datacenter / cluster / host", () => {
    const location = { ...noLocation, datacenterName: "dc1", clusterName: "c1", hostName: "esx01" };
    const [header, cells] = parse(serversCsv([row({ location })]));
    const at = header?.indexOf("location") ?? -1;
    expect(cells?.[at]).toBe("dc1 / c1 / esx01");
    expect(cells?.[at]).toBe(locationText(location));
  });

  it("names a filtered export differently from the full one, both with the date", () => {
    const now = new Date("2026-12-06T21:00:00Z");
    expect(csvFileName(false, now)).toBe("hyperlens-servers-2026-12-06.csv");
    expect(csvFileName(true, now)).toBe("hyperlens-servers-filtered-2026-12-06.csv");
  });
});
