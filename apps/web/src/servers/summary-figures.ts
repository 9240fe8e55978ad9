// The Servers header's figures. Counts come from totalCount queries; vCPU, memory and disk sums
// need every row, and the API has no aggregate yet, so they are summed from pages only while the
// inventory is small enough (SUM_LIMIT) and shown as unknown beyond it.
import { CONNECTION_KINDS, type ConnectionKind } from "@hyperlens/shared";

/** Rows per page of the sum query: the most the API cost limit admits with urql adding __typename. */
export const SUM_PAGE_SIZE = 240;
/** Above this many guests the sums are not computed in the browser. */
export const SUM_LIMIT = 6000;

const SOURCES: readonly ConnectionKind[] = CONNECTION_KINDS;

/** One query, aliased per source: VMs, containers and running guests. */
export const SUMMARY_COUNTS = `query SummaryCounts {
  ${SOURCES.map(
    (
      s,
    ) => `${s}_vm: virtualMachines(first: 0, filter: { source: [${s}], kind: [VM] }) { totalCount }
  ${s}_ct: virtualMachines(first: 0, filter: { source: [${s}], kind: [CONTAINER] }) { totalCount }
  ${s}_run: virtualMachines(first: 0, filter: { source: [${s}], state: [RUNNING] }) { totalCount }`,
  ).join("\n  ")}
}`;

export const SUMMARY_SUMS = `query SummarySums($after: String) {
  virtualMachines(first: ${SUM_PAGE_SIZE}, after: $after) {
    pageInfo { hasNextPage endCursor } edges { node { source cpuCount memoryBytes diskTotalBytes } }
  }
}`;

/** The figures of one source, or of all. */
export interface Figures {
  vms: number;
  containers: number;
  running: number;
  cpus: number | undefined;
  memoryBytes: number | undefined;
  diskBytes: number | undefined;
}

export type SummaryCountsResult = Record<string, { totalCount: number } | undefined>;

export interface SumRow {
  source: ConnectionKind;
  cpuCount: number | null;
  memoryBytes: number | null;
  diskTotalBytes: number | null;
}

/** Figures per source and in total, from the counts and (when known) the summed rows. */
export function buildFigures(
  counts: SummaryCountsResult,
  sumRows: readonly SumRow[] | undefined,
): { total: Figures; bySource: Record<ConnectionKind, Figures> } {
  const count = (key: string) => counts[key]?.totalCount ?? 0;
  const empty = (): Figures => ({
    vms: 0,
    containers: 0,
    running: 0,
    cpus: sumRows ? 0 : undefined,
    memoryBytes: sumRows ? 0 : undefined,
    diskBytes: sumRows ? 0 : undefined,
  });
  const total = empty();
  const bySource = { PROXMOX: empty(), VCD: empty(), VCENTER: empty() };
  for (const source of SOURCES) {
    const figures = bySource[source];
    figures.vms = count(`${source}_vm`);
    figures.containers = count(`${source}_ct`);
    figures.running = count(`${source}_run`);
    total.vms += figures.vms;
    total.containers += figures.containers;
    total.running += figures.running;
  }
  for (const row of sumRows ?? []) {
    for (const figures of [total, bySource[row.source]]) {
      figures.cpus = (figures.cpus ?? 0) + (row.cpuCount ?? 0);
      figures.memoryBytes = (figures.memoryBytes ?? 0) + (row.memoryBytes ?? 0);
      figures.diskBytes = (figures.diskBytes ?? 0) + (row.diskTotalBytes ?? 0);
    }
  }
  return { total, bySource };
}
