import { CONNECTION_KINDS } from "@hyperlens/shared";
import { print } from "graphql";
import { describe, expect, it } from "vitest";
import { buildFigures, SUMMARY_COUNTS } from "./summary-figures.ts";

const counts = {
  PROXMOX_vm: { totalCount: 10 },
  PROXMOX_ct: { totalCount: 5 },
  PROXMOX_run: { totalCount: 12 },
  VCD_vm: { totalCount: 5 },
  VCD_ct: { totalCount: 0 },
  VCD_run: { totalCount: 4 },
};

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

  it("counts VMs, containers and running guests of every source", () => {
    const aliases = print(SUMMARY_COUNTS).match(/\w+(?=: virtualMachines)/g);
    expect(aliases).toEqual(CONNECTION_KINDS.flatMap((s) => [`${s}_vm`, `${s}_ct`, `${s}_run`]));
  });

  it("stays within the API's 20 aliases", () => {
    expect(print(SUMMARY_COUNTS).match(/: virtualMachines/g)).toHaveLength(9);
  });
});
