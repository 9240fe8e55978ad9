import { CONNECTION_KINDS } from "@hyperlens/shared";
import { print } from "graphql";
import { describe, expect, it } from "vitest";
import { buildFigures, hasAnyGuest, SUMMARY_COUNTS, SUMMARY_SUMS } from "./summary-figures.ts";

const counts = {
  PROXMOX_vm: { totalCount: 10 },
  PROXMOX_ct: { totalCount: 5 },
  PROXMOX_run: { totalCount: 12 },
  VCD_vm: { totalCount: 5 },
  VCD_ct: { totalCount: 0 },
  VCD_run: { totalCount: 4 },
};

describe("hasAnyGuest", () => {
  it("is false for an empty inventory, whose figures are not shown (no “0 byte”)", () => {
    expect(hasAnyGuest(buildFigures({}, []).total)).toBe(false);
  });

  it("is true once a source has a VM or a container", () => {
    expect(hasAnyGuest(buildFigures(counts, undefined).total)).toBe(true);
    expect(hasAnyGuest(buildFigures({ VCD_ct: { totalCount: 1 } }, undefined).total)).toBe(true);
  });
});

describe("buildFigures", () => {
  it("adds the per-source counts into the total", () => {
    const { total, bySource } = buildFigures(counts, undefined);
    expect(total).toMatchObject({ vms: 15, containers: 5, running: 16 });
    expect(bySource.VCENTER).toMatchObject({ vms: 0, containers: 0, running: 0 });
  });

  it("leaves the sums unknown when the rows were not summed", () => {
    expect(buildFigures(counts, undefined).total.cpus).toBeUndefined();
  });

  it("sums vCPU, memory and disk per source and in total, counting missing values as zero", () => {
    const { total, bySource } = buildFigures(counts, [
      { source: "PROXMOX", cpuCount: 2, memoryBytes: 100, diskTotalBytes: 1000 },
      { source: "VCD", cpuCount: 8, memoryBytes: null, diskTotalBytes: 50 },
    ]);
    expect(total).toMatchObject({ cpus: 10, memoryBytes: 100, diskBytes: 1050 });
    expect(bySource.VCD).toMatchObject({ cpus: 8, memoryBytes: 0, diskBytes: 50 });
    expect(bySource.VCENTER.cpus).toBe(0);
  });

  it("counts a Director VM and the vCenter VM backing it once in the total, in each source's own figures (docs/behaviour.md §10.12)", () => {
    const linked = {
      ...counts,
      VCENTER_vm: { totalCount: 3 },
      VCENTER_run: { totalCount: 3 },
      pairs_vm: { count: 2, cpuCount: 4, memoryBytes: 40, diskTotalBytes: 400 },
      pairs_run: { count: 1 },
    };
    const rows = [
      { source: "VCD" as const, cpuCount: 2, memoryBytes: 20, diskTotalBytes: 200 },
      { source: "VCD" as const, cpuCount: 2, memoryBytes: 20, diskTotalBytes: 200 },
      { source: "VCENTER" as const, cpuCount: 2, memoryBytes: 20, diskTotalBytes: 200 },
      { source: "VCENTER" as const, cpuCount: 2, memoryBytes: 20, diskTotalBytes: 200 },
    ];
    const { total, bySource } = buildFigures(linked, rows);
    expect(total).toMatchObject({ vms: 16, running: 18, cpus: 4, memoryBytes: 40, diskBytes: 400 });
    expect(bySource.VCENTER).toMatchObject({ vms: 3, running: 3, cpus: 4 });
    expect(bySource.VCD).toMatchObject({ vms: 5, cpus: 4 });
  });

  it("leaves templates out of every count and sum", () => {
    for (const line of print(SUMMARY_COUNTS)
      .split("\n")
      .filter((l) => l.includes("filter:"))) {
      expect(line).toContain("isTemplate: false");
    }
    expect(print(SUMMARY_SUMS)).toContain("isTemplate: false");
  });

  it("counts VMs, containers and running guests of every source", () => {
    const aliases = print(SUMMARY_COUNTS).match(/\w+(?=: virtualMachines)/g);
    expect(aliases).toEqual(CONNECTION_KINDS.flatMap((s) => [`${s}_vm`, `${s}_ct`, `${s}_run`]));
  });

  it("stays within the API's 20 aliases", () => {
    expect(print(SUMMARY_COUNTS).match(/: virtualMachines/g)).toHaveLength(9);
  });
});
