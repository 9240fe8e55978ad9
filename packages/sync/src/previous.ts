import type { GuestValue, IpAddress, Prisma } from "@hyperlens/db";
import type { Confirmation, JsonObject, ReportedAddress } from "@hyperlens/shared";
import { diskLine, ipLine, nicLine, type VmSummary } from "./diff.ts";

/** The stored version of a guest about to be rewritten: for its diff and its last-known IPs. */
export interface PreviousVm {
  id: string;
  summary: VmSummary;
  changedAt: Date;
  lastSeenAt: Date;
  removedAt: Date | null;
  confirmation: Confirmation;
  ips: IpAddress[];
  /** The raw address report stored with it (docs/behaviour.md §10.9). */
  reportedAddresses: ReportedAddress[];
  guestValues: GuestValue[];
}

function groupByVm<T extends { vmId: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.vmId);
    if (group) group.push(row);
    else groups.set(row.vmId, [row]);
  }
  return groups;
}

const num = (value: bigint | number | null) => (value === null ? null : Number(value));

/** Loads the stored rows and children of the given guests (one query per table). */
export async function loadPrevious(
  db: Prisma.TransactionClient,
  ids: string[],
): Promise<Map<string, PreviousVm>> {
  if (ids.length === 0) return new Map();
  // One awaited query at a time: Prisma's `include` would run them concurrently on the one
  // connection of the transaction, which node-postgres deprecates.
  const where = { vmId: { in: ids } };
  const rows = await db.virtualMachine.findMany({ where: { id: { in: ids } } });
  const nics = groupByVm(await db.nic.findMany({ where }));
  const ips = groupByVm(await db.ipAddress.findMany({ where }));
  const disks = groupByVm(await db.disk.findMany({ where }));
  const guestValues = groupByVm(await db.guestValue.findMany({ where }));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        changedAt: row.changedAt,
        lastSeenAt: row.lastSeenAt,
        removedAt: row.removedAt,
        confirmation: row.confirmation,
        ips: ips.get(row.id) ?? [],
        reportedAddresses: row.reportedAddresses as unknown as ReportedAddress[],
        guestValues: guestValues.get(row.id) ?? [],
        summary: {
          listKey: row.listKey,
          name: row.name,
          kind: row.kind,
          state: row.state,
          cpuCount: row.cpuCount,
          memoryBytes: num(row.memoryBytes),
          diskTotalBytes: num(row.diskTotalBytes),
          guestOs: row.guestOs,
          guestOsCode: row.guestOsCode,
          biosUuid: row.biosUuid,
          instanceUuid: row.instanceUuid,
          isTemplate: row.isTemplate,
          tags: [...row.tags].sort(),
          nodeName: row.nodeName,
          clusterName: row.clusterName,
          datacenterName: row.datacenterName,
          hostName: row.hostName,
          orgName: row.orgName,
          vdcName: row.vdcName,
          vappName: row.vappName,
          backing:
            row.backingVcenterId && row.backingMoref
              ? `${row.backingVcenterId}/${row.backingMoref}`
              : null,
          nics: (nics.get(row.id) ?? []).map(nicLine).sort(),
          ips: (ips.get(row.id) ?? []).map((ip) => ipLine(ip)).sort(),
          primaryAddress: row.primaryAddress,
          disks: (disks.get(row.id) ?? [])
            .map((d) => diskLine({ ...d, capacityBytes: num(d.capacityBytes) }))
            .sort(),
          details: (row.details ?? {}) as JsonObject,
        },
      },
    ]),
  );
}
