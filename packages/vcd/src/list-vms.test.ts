import { describe, expect, it } from "vitest";
import { listVmPages } from "./list-vms.ts";
import type { VcdVmRecord, VmQueryPage } from "./parse/vm-records.ts";

function vm(n: number): VcdVmRecord {
  const href = `https://h/api/vApp/vm-00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  return { href, urn: `urn:vcloud:vm:${n}`, name: `vm-${n}` } as VcdVmRecord;
}

function page(numbers: number[], total: number): VmQueryPage {
  const vms = numbers.map(vm);
  return {
    page: null,
    pageSize: 25,
    total,
    recordCount: vms.length,
    recordHrefs: vms.map((v) => v.href),
    vms,
    hasNextPage: false,
  };
}

describe("listVmPages", () => {
  it("a VM seen twice because the list shifted mid-read makes the read incomplete", async () => {
    // VM 2 was deleted between the pages: VM 3 moved onto page 1, VM 1 repeats on page 2.
    const pages = [page([0, 1], 4), page([1, 4], 3)];
    const listing = await listVmPages(async (n) => pages[n - 1] ?? page([], 3));
    expect(listing.vms.map((v) => v.name)).toEqual(["vm-0", "vm-1", "vm-4"]);
    expect(listing.isComplete).toBe(false);
  });

  it("stops asking once the records that arrived reach total", async () => {
    const asked: number[] = [];
    const listing = await listVmPages(async (n) => {
      asked.push(n);
      return n === 1 ? page([0, 1], 3) : page([2], 3);
    });
    expect(asked).toEqual([1, 2]);
    expect(listing.isComplete).toBe(true);
  });
});
