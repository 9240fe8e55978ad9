// Cross-source identity (docs/behaviour.md §10): a Director VM and the vCenter VM backing it are the same
// machine. Director's admin VM record names the vCenter (by Director's own id) and the moref; the
// Director sync adds that vCenter's address, read from Director's registered vCenters (provider
// accounts only). A vCenter connection at the same address, holding a live VM with that moref,
// completes the link. Both directions answer from the same rule.
import type { Prisma, PrismaClient, VirtualMachine } from "@hyperlens/db";
import { BACKING_VCENTER_HOST_DETAIL_PATH, normalizeHost } from "@hyperlens/shared";

/** What a Director VM row must carry for {@link findBackingVcenterVm}. */
export interface DirectorVmBacking {
  backingMoref: string | null;
  details: Prisma.JsonValue;
  removedAt: Date | null;
}

/** What a vCenter VM row must carry for {@link findBackedDirectorVm}. */
export interface VcenterVmIdentity {
  externalId: string;
  removedAt: Date | null;
  connection: { baseUrl: string };
}

/** The backing vCenter's normalised address a Director sync stored in the VM's details. */
export function backingVcenterHost(details: Prisma.JsonValue): string | null {
  let value: Prisma.JsonValue | undefined = details;
  for (const key of BACKING_VCENTER_HOST_DETAIL_PATH) {
    value =
      value !== null && typeof value === "object" && !Array.isArray(value) ? value[key] : undefined;
  }
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * The live vCenter VM backing a live Director VM: on a vCenter connection whose address
 * normalises to the backing vCenter's, with the Director VM's moref as its id. Null when the
 * vCenter is not connected, the moref is not (or no longer) there, or the Director sync could not
 * learn the vCenter's address. Two connections to the same vCenter: the first by row id.
 */
export async function findBackingVcenterVm(
  prisma: PrismaClient,
  vm: DirectorVmBacking,
  /** Only guests that also match this (the viewer's visible guests). */
  among: Prisma.VirtualMachineWhereInput = {},
): Promise<VirtualMachine | null> {
  const host = backingVcenterHost(vm.details);
  if (vm.removedAt !== null || vm.backingMoref === null || host === null) return null;
  const connectionIds = await vcenterConnectionsAt(prisma, host);
  if (connectionIds.length === 0) return null;
  return prisma.virtualMachine.findFirst({
    where: {
      source: "VCENTER",
      connectionId: { in: connectionIds },
      externalId: vm.backingMoref,
      // TRAP: docs/behaviour.md §10 — a removed vCenter VM backs nothing; linking a tombstone shows a machine that is gone.
      removedAt: null,
      AND: [among],
    },
    orderBy: { id: "asc" },
  });
}

/**
 * The live Director VM a live vCenter VM provides: its moref is the Director VM's backing moref
 * and its connection's address the backing vCenter's. Looked up by moref (indexed), never by
 * scanning every Director VM. Several Director connections to one install: the first by row id.
 */
export async function findBackedDirectorVm(
  prisma: PrismaClient,
  vm: VcenterVmIdentity,
  /** Only guests that also match this (the viewer's visible guests). */
  among: Prisma.VirtualMachineWhereInput = {},
): Promise<VirtualMachine | null> {
  const host = normalizeHost(vm.connection.baseUrl);
  if (vm.removedAt !== null || host === null) return null;
  return prisma.virtualMachine.findFirst({
    where: {
      source: "VCD",
      backingMoref: vm.externalId,
      removedAt: null,
      // TRAP: docs/behaviour.md §10 — morefs repeat across vCenters ("vm-1001" exists on each); only the address tells them apart.
      details: { path: [...BACKING_VCENTER_HOST_DETAIL_PATH], equals: host },
      AND: [among],
    },
    orderBy: { id: "asc" },
  });
}

/** Morefs per query: well under every database's bound-parameter limit. */
const MOREF_CHUNK = 1000;

/** The machines two sources report, counted once, with what their vCenter side allocates. */
export interface BackedPairs {
  count: number;
  cpuCount: number;
  memoryBytes: number;
  diskTotalBytes: number;
}

/**
 * The live vCenter VMs (matching `among`) that back a live Director VM matching `directors`: the
 * machines the unified list shows twice, once per source, that the summary figures count once
 * (docs/behaviour.md §10.12). By the same rule as {@link findBackingVcenterVm}, one vCenter address at a
 * time, so a moref is only ever matched on the vCenter the Director names.
 */
export async function findBackedPairs(
  prisma: PrismaClient,
  directors: Prisma.VirtualMachineWhereInput,
  among: Prisma.VirtualMachineWhereInput = {},
): Promise<BackedPairs> {
  const connectionsByHost = new Map<string, string[]>();
  for (const c of await prisma.connection.findMany({
    where: { kind: "VCENTER" },
    select: { id: true, baseUrl: true },
  })) {
    const host = normalizeHost(c.baseUrl);
    if (host !== null) connectionsByHost.set(host, [...(connectionsByHost.get(host) ?? []), c.id]);
  }
  const pairs: BackedPairs = { count: 0, cpuCount: 0, memoryBytes: 0, diskTotalBytes: 0 };
  for (const [host, connectionIds] of connectionsByHost) {
    const backed = await prisma.virtualMachine.findMany({
      where: {
        AND: [directors, among],
        source: "VCD",
        removedAt: null,
        backingMoref: { not: null },
        details: { path: [...BACKING_VCENTER_HOST_DETAIL_PATH], equals: host },
      },
      select: { backingMoref: true },
      distinct: ["backingMoref"],
    });
    const morefs = backed.flatMap((vm) => (vm.backingMoref === null ? [] : [vm.backingMoref]));
    for (let at = 0; at < morefs.length; at += MOREF_CHUNK) {
      const chunk = await prisma.virtualMachine.aggregate({
        where: {
          AND: [among],
          source: "VCENTER",
          connectionId: { in: connectionIds },
          externalId: { in: morefs.slice(at, at + MOREF_CHUNK) },
          removedAt: null,
        },
        _count: { _all: true },
        _sum: { cpuCount: true, memoryBytes: true, diskTotalBytes: true },
      });
      pairs.count += chunk._count._all;
      pairs.cpuCount += chunk._sum.cpuCount ?? 0;
      pairs.memoryBytes += Number(chunk._sum.memoryBytes ?? 0);
      pairs.diskTotalBytes += Number(chunk._sum.diskTotalBytes ?? 0);
    }
  }
  return pairs;
}

async function vcenterConnectionsAt(prisma: PrismaClient, host: string): Promise<string[]> {
  const connections = await prisma.connection.findMany({
    where: { kind: "VCENTER" },
    select: { id: true, baseUrl: true },
  });
  return connections.filter((c) => normalizeHost(c.baseUrl) === host).map((c) => c.id);
}
