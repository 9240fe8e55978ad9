import type { IpAddress, Prisma } from "@hyperlens/db";
import type { JsonObject } from "@hyperlens/shared";
import { diskLine, ipLine, nicLine, type VmSummary } from "./diff.ts";
import type { Confirmation } from "./plan.ts";

/** The stored version of a guest about to be rewritten: for its diff and its last-known IPs. */
export interface PreviousVm {
  id: string;
  summary: VmSummary;
  changedAt: Date;
  confirmation: Confirmation;
  ips: IpAddress[];
}

const num = (value: bigint | number | null) => (value === null ? null : Number(value));

/** Loads the stored rows and children of the given guests (one query per table). */
export async function loadPrevious(
  db: Prisma.TransactionClient,
  ids: string[],
): Promise<Map<string, PreviousVm>> {
  if (ids.length === 0) return new Map();
  const rows = await db.virtualMachine.findMany({
    where: { id: { in: ids } },
    include: { nics: true, ips: true, disks: true },
  });
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        changedAt: row.changedAt,
        confirmation: row.confirmation,
        ips: row.ips,
        summary: {
          listKey: row.listKey,
          name: row.name,
          kind: row.kind,
          state: row.state,
          cpuCount: row.cpuCount,
          memoryBytes: num(row.memoryBytes),
          diskTotalBytes: num(row.diskTotalBytes),
          guestOs: row.guestOs,
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
          nics: row.nics.map(nicLine).sort(),
          ips: row.ips.map((ip) => ipLine(ip)).sort(),
          disks: row.disks
            .map((d) => diskLine({ ...d, capacityBytes: num(d.capacityBytes) }))
            .sort(),
          details: (row.details ?? {}) as JsonObject,
        },
      },
    ]),
  );
}
