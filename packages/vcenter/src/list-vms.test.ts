// The completeness rules of the VM listing, on a list function without a server.
import { HyperError } from "@hyperlens/hyper-http";
import { describe, expect, it } from "vitest";
import { isVmListRefusal, readVmListing } from "./list-vms.ts";
import type { VcenterVmSummary } from "./parse/vm-list.ts";
import type { VmFilter } from "./vm-filter.ts";

const vm = (n: number): VcenterVmSummary => ({
  vm: `vm-${n}`,
  name: `vm${n}`,
  powerState: "POWERED_ON",
  cpuCount: 1,
  memoryMiB: 512,
});

const tooMany = () =>
  new HyperError("Too many virtual machines", {
    errorClass: "transient",
    source: "vCenter",
    status: 500,
    serverErrorType: "UNABLE_TO_ALLOCATE_RESOURCE",
  });

describe("isVmListRefusal", () => {
  const cap = "UNABLE_TO_ALLOCATE_RESOURCE";
  it("knows the cap by its error type or message, whatever the status", () => {
    expect(isVmListRefusal({ status: 500, serverErrorType: cap })).toBe(true);
    expect(isVmListRefusal({ status: 400, serverErrorType: cap })).toBe(true);
    expect(
      isVmListRefusal({ status: 400, serverMessage: "Too many virtual machines. Add more…" }),
    ).toBe(true);
  });

  it("takes no other failure for it: a 503, a bare 500, another type, no answer", () => {
    expect(isVmListRefusal({ status: 503, serverErrorType: "SERVICE_UNAVAILABLE" })).toBe(false);
    expect(isVmListRefusal({ status: 500 })).toBe(false);
    expect(isVmListRefusal({ status: 400, serverErrorType: "INVALID_ARGUMENT" })).toBe(false);
    expect(isVmListRefusal({ serverErrorType: cap })).toBe(false);
  });
});

describe("readVmListing", () => {
  it("a refused list with no host to split by is incomplete, never empty", async () => {
    const listing = await readVmListing({
      list: async () => {
        throw tooMany();
      },
      hosts: [],
      folders: async () => [],
      cap: 10,
    });
    expect(listing.isComplete).toBe(false);
  });

  it("merges host parts when the whole list is refused, first host wins for a VM seen twice", async () => {
    const byHost: Record<string, VcenterVmSummary[]> = {
      "host-1": [vm(1), vm(2)],
      "host-2": [vm(2), vm(3)],
    };
    const listing = await readVmListing({
      list: async (filter: VmFilter) => {
        if (!filter.hosts) throw tooMany();
        return byHost[filter.hosts[0] ?? ""] ?? [];
      },
      hosts: ["host-1", "host-2"],
      folders: async () => [],
      cap: 3,
      parallel: 1,
    });
    expect(listing).toMatchObject({ isComplete: true, strategy: "parts" });
    expect(listing.vms.map((v) => v.vm)).toEqual(["vm-1", "vm-2", "vm-3"]);
    expect(listing.hostOf.get("vm-2")).toBe("host-1");
  });

  it("a part failing for another reason than the cap makes the listing incomplete", async () => {
    const listing = await readVmListing({
      list: async (filter: VmFilter) => {
        if (filter.hosts?.[0] === "host-2") {
          throw new HyperError("forbidden", {
            errorClass: "permission",
            source: "vCenter",
            status: 403,
          });
        }
        return [vm(1)];
      },
      hosts: ["host-1", "host-2"],
      folders: async () => [],
    });
    expect(listing.isComplete).toBe(false);
    expect(listing.reason).toContain("hosts=host-2");
  });

  it("a failure that is not an HTTP answer rejects (the adapter turns it into a failed list)", async () => {
    await expect(
      readVmListing({
        list: async () => {
          throw new HyperError("no route", { errorClass: "unreachable", source: "vCenter" });
        },
        hosts: ["host-1"],
        folders: async () => [],
      }),
    ).rejects.toThrow("no route");
  });
});
