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

/**
 * One query, aliased per source (`<source>_vm`, `_ct`, `_run`): VMs, containers and running guests,
 * templates left out (docs/behaviour.md §9.2); and (`pairs_vm`, `pairs_run`) the machines two sources
 * report, which the total counts once (docs/behaviour.md §10.12).
 */
export const SUMMARY_COUNTS = graphql(`
  query SummaryCounts {
    PROXMOX_vm: virtualMachines(first: 0, filter: { source: [PROXMOX], kind: [VM], isTemplate: false }) { totalCount }
    PROXMOX_ct: virtualMachines(first: 0, filter: { source: [PROXMOX], kind: [CONTAINER], isTemplate: false }) { totalCount }
    PROXMOX_run: virtualMachines(first: 0, filter: { source: [PROXMOX], state: [RUNNING], isTemplate: false }) { totalCount }
    VCD_vm: virtualMachines(first: 0, filter: { source: [VCD], kind: [VM], isTemplate: false }) { totalCount }
    VCD_ct: virtualMachines(first: 0, filter: { source: [VCD], kind: [CONTAINER], isTemplate: false }) { totalCount }
    VCD_run: virtualMachines(first: 0, filter: { source: [VCD], state: [RUNNING], isTemplate: false }) { totalCount }
    VCENTER_vm: virtualMachines(first: 0, filter: { source: [VCENTER], kind: [VM], isTemplate: false }) { totalCount }
    VCENTER_ct: virtualMachines(first: 0, filter: { source: [VCENTER], kind: [CONTAINER], isTemplate: false }) { totalCount }
    VCENTER_run: virtualMachines(first: 0, filter: { source: [VCENTER], state: [RUNNING], isTemplate: false }) { totalCount }
    pairs_vm: crossSourcePairs(filter: { kind: [VM], isTemplate: false }) { count cpuCount memoryBytes diskTotalBytes }
    pairs_run: crossSourcePairs(filter: { state: [RUNNING], isTemplate: false }) { count }
  }
`);

/** A page of the rows whose vCPU, memory and disk are summed; `first` is SUM_PAGE_SIZE. */
export const SUMMARY_SUMS = graphql(`
  query SummarySums($first: Int!, $after: String) {
    virtualMachines(first: $first, after: $after, filter: { isTemplate: false }) {
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

export type SummaryCountsResult = Partial<
  Record<string, { totalCount: number } | Partial<Pairs> | undefined>
>;

interface Pairs {
  count: number;
  cpuCount: number;
  memoryBytes: number;
  diskTotalBytes: number;
}

export type SumsPage = ResultOf<typeof SUMMARY_SUMS>;
export type SumRow = SumsPage["virtualMachines"]["edges"][number]["node"];

/**
 * Whether the figures have anything to show: with no guest at all the page shows its empty state
 * instead, not a row of zeros and "0 byte".
 */
export function hasAnyGuest(figures: Figures): boolean {
  return figures.vms + figures.containers > 0;
}

/** Figures per source and in total, from the counts and (when known) the summed rows. */
export function buildFigures(
  counts: SummaryCountsResult,
  sumRows: readonly SumRow[] | undefined,
): { total: Figures; bySource: Record<ConnectionKind, Figures> } {
  const count = (key: string) => {
    const value = counts[key];
    return value && "totalCount" in value ? value.totalCount : 0;
  };
  const pair = (key: string, field: keyof Pairs) => {
    const value = counts[key];
    return value && !("totalCount" in value) ? (value[field] ?? 0) : 0;
  };
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
  // A Director VM and the vCenter VM backing it are one machine: each source's figures hold it,
  // the total only once (docs/behaviour.md §10.12).
  total.vms -= pair("pairs_vm", "count");
  total.running -= pair("pairs_run", "count");
  for (const row of sumRows ?? []) {
    for (const figures of [total, bySource[row.source]]) {
      figures.cpus = (figures.cpus ?? 0) + (row.cpuCount ?? 0);
      figures.memoryBytes = (figures.memoryBytes ?? 0) + (row.memoryBytes ?? 0);
      figures.diskBytes = (figures.diskBytes ?? 0) + (row.diskTotalBytes ?? 0);
    }
  }
  if (sumRows) {
    total.cpus = (total.cpus ?? 0) - pair("pairs_vm", "cpuCount");
    total.memoryBytes = (total.memoryBytes ?? 0) - pair("pairs_vm", "memoryBytes");
    total.diskBytes = (total.diskBytes ?? 0) - pair("pairs_vm", "diskTotalBytes");
  }
  return { total, bySource };
}
