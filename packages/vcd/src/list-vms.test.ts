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
  it("a VM deleted mid-read (which shifts an unseen one onto a read page) makes it incomplete", async () => {
    // VMs 0–4, two per page; VM 0 is deleted after page 1, so VM 2 slides onto page 1 unseen.
    const pages = [page([0, 1], 5), page([3, 4], 4)];
    const listing = await listVmPages(async (n) => pages[n - 1] ?? page([], 4));
    expect(listing.vms.map((v) => v.name)).toEqual(["vm-0", "vm-1", "vm-3", "vm-4"]);
    expect(listing.isComplete).toBe(false);
    expect(listing.reason).toMatch(/changed while it was read/);
  });

  it("a VM repeated on two pages with a steady total makes it incomplete", async () => {
    const pages = [page([0, 1], 3), page([1], 3)];
    const listing = await listVmPages(async (n) => pages[n - 1] ?? page([], 3));
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
