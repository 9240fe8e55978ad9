import { malformed } from "./parse/malformed.ts";
import type { VcdVmRecord, VmQueryPage } from "./parse/vm-records.ts";

/** Every VM of the query service, and whether the read is known complete. */
export interface VmListing {
  vms: VcdVmRecord[];
  /** What Director reported on the last page read. */
  total: number | null;
  /** Records that arrived (templates and repeats included). */
  received: number;
  pages: number;
  /**
   * false when the counts do not add up (a page came back empty before `total`, or VMs moved
   * between pages while we read); the caller must then remove nothing.
   */
  isComplete: boolean;
  reason?: string;
}

/** Far more than any install has (128 × 10 000 VMs); only a server that never ends a list gets here. */
const MAX_PAGES = 10_000;

/**
 * Reads pages 1, 2, … until the records that ARRIVED reach `total`, or a page is empty. Director
 * caps the page size silently, so a page never says how many pages there are; a failed page
 * rejects (nothing to remove then).
 */
export async function listVmPages(
  readPage: (page: number) => Promise<VmQueryPage>,
  onPage?: (page: VmQueryPage, received: number) => void,
): Promise<VmListing> {
  const byUrn = new Map<string, VcdVmRecord>();
  const seenHrefs = new Set<string>();
  let received = 0;
  let total: number | null = null;
  let firstTotal: number | null = null;
  let pages = 0;
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) {
      throw malformed("GET /api/query?type=vm", `the VM list did not end after ${MAX_PAGES} pages`);
    }
    const answer = await readPage(page);
    pages = page;
    total = answer.total ?? total;
    firstTotal ??= answer.total;
    received += answer.recordCount;
    onPage?.(answer, received);
    if (answer.recordCount === 0) break;
    for (const href of answer.recordHrefs) seenHrefs.add(href);
    for (const vm of answer.vms) if (!byUrn.has(vm.urn)) byUrn.set(vm.urn, vm);
    // TRAP: docs/behaviour.md §4 — count what arrived; a page holding less than asked is not the last page.
    if (total !== null && received >= total) break;
  }
  const vms = [...byUrn.values()];
  // Offset paging shifts records when VMs come or go mid-read: one we already passed can push
  // an unseen one onto a page we already read. A changed total (or a repeat) reveals it.
  if (firstTotal !== total) {
    return {
      vms,
      total,
      received,
      pages,
      isComplete: false,
      reason: `the VM list changed while it was read (Cloud Director reported ${firstTotal} VMs, then ${total})`,
    };
  }
  if (total !== null && seenHrefs.size < total) {
    return {
      vms,
      total,
      received,
      pages,
      isComplete: false,
      reason: `Cloud Director reported ${total} VMs (templates included) but ${seenHrefs.size} distinct ones arrived in ${pages} pages; the list changed while it was read`,
    };
  }
  return { vms, total, received, pages, isComplete: true };
}
