// The Servers header's figures. Counts come from totalCount queries; vCPU, memory and disk sums
// need every row, and the API has no aggregate yet, so they are summed from pages only while the
// inventory is small enough (SUM_LIMIT) and shown as unknown beyond it.
import { CONNECTION_KINDS, type ConnectionKind } from "@hyperlens/shared";
import { graphql, type ResultOf } from "../graphql/graphql.ts";

/** Rows per page of the sum query: the most the API cost limit admits with urql adding __typename. */
export const SUM_PAGE_SIZE = 240;
/** Above this many guests the sums are not computed in the browser. */
export const SUM_LIMIT = 6000;

const SOURCES: readonly ConnectionKind[] = CONNECTION_KINDS;

/** One query, aliased per source (`<source>_vm`, `_ct`, `_run`): VMs, containers and running guests. */
export const SUMMARY_COUNTS = graphql(`
  query SummaryCounts {
    PROXMOX_vm: virtualMachines(first: 0, filter: { source: [PROXMOX], kind: [VM] }) { totalCount }
    PROXMOX_ct: virtualMachines(first: 0, filter: { source: [PROXMOX], kind: [CONTAINER] }) { totalCount }
    PROXMOX_run: virtualMachines(first: 0, filter: { source: [PROXMOX], state: [RUNNING] }) { totalCount }
    VCD_vm: virtualMachines(first: 0, filter: { source: [VCD], kind: [VM] }) { totalCount }
    VCD_ct: virtualMachines(first: 0, filter: { source: [VCD], kind: [CONTAINER] }) { totalCount }
    VCD_run: virtualMachines(first: 0, filter: { source: [VCD], state: [RUNNING] }) { totalCount }
    VCENTER_vm: virtualMachines(first: 0, filter: { source: [VCENTER], kind: [VM] }) { totalCount }
    VCENTER_ct: virtualMachines(first: 0, filter: { source: [VCENTER], kind: [CONTAINER] }) { totalCount }
    VCENTER_run: virtualMachines(first: 0, filter: { source: [VCENTER], state: [RUNNING] }) { totalCount }
  }
`);

/** A page of the rows whose vCPU, memory and disk are summed; `first` is SUM_PAGE_SIZE. */
export const SUMMARY_SUMS = graphql(`
  query SummarySums($first: Int!, $after: String) {
    virtualMachines(first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges { node { source cpuCount memoryBytes diskTotalBytes } }
    }
  }
`);

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

export type SumsPage = ResultOf<typeof SUMMARY_SUMS>;
export type SumRow = SumsPage["virtualMachines"]["edges"][number]["node"];

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
