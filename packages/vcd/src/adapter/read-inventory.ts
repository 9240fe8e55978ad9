// Reads a whole Cloud Director install into a neutral snapshot (docs/behaviour.md §4, steps 1–4), inside one
// session that is always logged out. The VM list is "ok" only when every page and every VM's
// sections were read; edge gateways are complete only when every page was read.

import { isHyperError } from "@hyperlens/hyper-http";
import type { ListRead, NeutralEdgeGateway, NeutralVm, SourceSnapshot } from "@hyperlens/shared";
import { errorMessage } from "@hyperlens/shared";
import type { VcdClient } from "../client.ts";
import type { VcdVmRecord } from "../parse/vm-records.ts";
import { mapEdgeGateway, mapEdgeGatewayRecord } from "./map-edge-gateway.ts";
import { mapVcdVm, type VcdVmContext } from "./map-vm.ts";
import { readOrgNames } from "./org-names.ts";
import { readVcenterHosts } from "./vcenter-hosts.ts";
import { startVmSectionReads } from "./vm-section-reads.ts";

/** The key of Director's one VM list. */
export const VCD_VM_LIST_KEY = "vms";

/** Progress of a read, for live sync progress. */
export type VcdReadProgress =
  | { type: "list"; key: string; status: "ok" | "skipped"; count?: number; reason?: string }
  | { type: "pages"; received: number; total: number | null }
  | { type: "vms"; done: number; total: number };

/** Options of {@link readVcdInventory}. */
export interface VcdReadOptions {
  onProgress?: (event: VcdReadProgress) => void;
  /** VMs whose sections are read at once (default 16); hyper-http still caps per connection. */
  parallelVms?: number;
  signal?: AbortSignal;
}

async function readVmList(
  client: VcdClient,
  options: VcdReadOptions,
  context: VcdVmContext,
): Promise<ListRead> {
  const emit = options.onProgress ?? (() => {});
  const key = VCD_VM_LIST_KEY;
  const failed = (reason: string): ListRead => {
    emit({ type: "list", key, status: "skipped", reason });
    return { key, status: "failed", reason };
  };
  const sections = startVmSectionReads(client, {
    parallelVms: options.parallelVms ?? 16,
    ...(options.signal ? { signal: options.signal } : {}),
    onRead: (done, started) => {
      if (done % 100 === 0) emit({ type: "vms", done, total: started });
    },
  });
  // Sections of a page are read while the next pages are fetched.
  // TRAP: docs/behaviour.md §4 — the session is logged out after this returns: a read still on the wire would
  // outlive it, so every started read ends first, whatever happened to the list.
  const giveUp = async (reason: string): Promise<ListRead> => {
    sections.stop();
    await sections.settle();
    options.signal?.throwIfAborted();
    return failed(reason);
  };
  let records: VcdVmRecord[];
  try {
    const listing = await client.listVms({
      onPage: (page, received) => {
        options.signal?.throwIfAborted();
        emit({ type: "pages", received, total: page.total });
        sections.start(page.vms);
      },
    });
    // TRAP: docs/behaviour.md §4 — remove VMs only after a complete read: a list whose counts do not add up removes nothing.
    if (!listing.isComplete) return giveUp(listing.reason ?? "the VM list was not read completely");
    records = listing.vms;
  } catch (error) {
    // TRAP: docs/behaviour.md §4 — a failed page is a failed list, never a shorter one, even with sections read.
    return giveUp(`VM query: ${errorMessage(error)}`);
  }

  sections.start(records);
  const read = await sections.settle();
  options.signal?.throwIfAborted();
  if (read === undefined) return failed(sections.failure ?? "the VM sections were not read");
  const vms: NeutralVm[] = [];
  for (const record of records) {
    const found = read.get(record.href);
    if (!found) return failed(`VM ${record.name} (${record.urn}): its sections were not read`);
    vms.push(mapVcdVm(record, found.section, found.disks, context));
  }
  emit({ type: "vms", done: vms.length, total: vms.length });
  emit({ type: "list", key, status: "ok", count: vms.length });
  return { key, status: "ok", vms };
}

async function readEdgeGateways(client: VcdClient): Promise<SourceSnapshot["edgeGateways"]> {
  let items: NeutralEdgeGateway[];
  try {
    const listing = await client.listEdgeGateways();
    items = listing.gateways.map(mapEdgeGateway);
    return listing.isComplete
      ? { isComplete: true, items }
      : { isComplete: false, ...(listing.reason ? { reason: listing.reason } : {}), items };
  } catch (error) {
    // Installs without the CloudAPI list answer 404; their query service still lists edges.
    if (!isHyperError(error) || error.errorClass !== "not_found") {
      // TRAP: docs/behaviour.md §4 — edge gateways are removed only after a complete read of every page.
      return { isComplete: false, reason: `edge gateways: ${errorMessage(error)}`, items: [] };
    }
  }
  try {
    const legacy = await client.listEdgeGatewayRecords();
    items = legacy.gateways.map(mapEdgeGatewayRecord);
    return legacy.isComplete
      ? { isComplete: true, items }
      : { isComplete: false, ...(legacy.reason ? { reason: legacy.reason } : {}), items };
  } catch (error) {
    return { isComplete: false, reason: `edge gateways: ${errorMessage(error)}`, items: [] };
  }
}

/**
 * Reads every VM (query pages, and each VM's NICs and disks as its page arrives) and every edge
 * gateway — for a provider, first the registered vCenters, so each VM names its vCenter's address — inside one
 * session that is logged out afterwards whatever happened. Throws only when the login fails or
 * the read is aborted; a failed page or section becomes a failed list.
 */
export async function readVcdInventory(
  client: VcdClient,
  options: VcdReadOptions = {},
): Promise<SourceSnapshot> {
  return client.withSession(async (session) => {
    // A provider session's org is System; its VMs belong to the tenants named on each record.
    const sessionOrgName = client.isProvider ? null : session.orgName;
    const vcenterHosts = await readVcenterHosts(client);
    const orgNames = await readOrgNames(client);
    options.signal?.throwIfAborted();
    const list = await readVmList(client, options, { sessionOrgName, vcenterHosts, orgNames });
    options.signal?.throwIfAborted();
    const edgeGateways = await readEdgeGateways(client);
    return { lists: [list], edgeGateways };
  });
}
