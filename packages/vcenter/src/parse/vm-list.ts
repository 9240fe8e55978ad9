import { z } from "zod";
import { moref, optionalCount } from "./fields.ts";
import { parseWith } from "./malformed.ts";

/** A VM's power state as vCenter names it; unknown words are kept as they are. */
export type VcenterPowerState = "POWERED_ON" | "POWERED_OFF" | "SUSPENDED" | (string & {});

/** One row of `GET /api/vcenter/vm` (VM.Summary). */
export interface VcenterVmSummary {
  /** Managed-object reference, `vm-1049`. */
  vm: string;
  name: string;
  powerState: VcenterPowerState;
  /** Absent for inaccessible or orphaned VMs. */
  cpuCount: number | null;
  memoryMiB: number | null;
}

const summary = z.object({
  vm: moref,
  name: z.string(),
  power_state: z.string(),
  cpu_count: optionalCount,
  memory_size_MiB: optionalCount,
});

/** Parses `GET /api/vcenter/vm`: a plain array, no `{value: …}` wrapper and no paging. */
export function parseVmList(value: unknown, call: string): VcenterVmSummary[] {
  return parseWith(z.array(summary), value, call, "vms").map((row) => ({
    vm: row.vm,
    name: row.name,
    powerState: row.power_state,
    cpuCount: row.cpu_count ?? null,
    memoryMiB: row.memory_size_MiB ?? null,
  }));
}
