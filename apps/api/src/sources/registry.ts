// The one registration point of hypervisor sources.
import type { ConnectionKind } from "@hyperlens/shared";
import { proxmoxDriver } from "./proxmox-driver.ts";
import type { SourceDriver } from "./source-driver.ts";
import { vcdDriver } from "./vcd-driver.ts";
import { vcenterDriver } from "./vcenter-driver.ts";

const DRIVERS: Partial<Record<ConnectionKind, SourceDriver>> = {
  PROXMOX: proxmoxDriver,
  VCD: vcdDriver,
  VCENTER: vcenterDriver,
};

/** The driver of a connection kind, or undefined while that source is not built yet. */
export function driverFor(kind: ConnectionKind): SourceDriver | undefined {
  return DRIVERS[kind];
}
