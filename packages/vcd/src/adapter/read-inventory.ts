// Reads a whole Cloud Director install into a neutral snapshot (SPEC §4, steps 1–4), inside one
// session that is always logged out. The VM list is "ok" only when every page and every VM's
// sections were read; edge gateways are complete only when every page was read.

import { isHyperError } from "@hyperlens/hyper-http";
import type { ListRead, NeutralEdgeGateway, NeutralVm, SourceSnapshot } from "@hyperlens/shared";
import { errorMessage, mapWithLimit } from "@hyperlens/shared";
import type { VcdClient } from "../client.ts";
import type { VcdVmRecord } from "../parse/vm-records.ts";
import { mapEdgeGateway, mapEdgeGatewayRecord } from "./map-edge-gateway.ts";
import { mapVcdVm } from "./map-vm.ts";

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
  sessionOrgName: string | null,
): Promise<ListRead> {
  const emit = options.onProgress ?? (() => {});
  const key = VCD_VM_LIST_KEY;
  const failed = (reason: string): ListRead => {
    emit({ type: "list", key, status: "skipped", reason });
    return { key, status: "failed", reason };
  };
  let records: VcdVmRecord[];
  try {
    const listing = await client.listVms({
      onPage: (page, received) => {
        options.signal?.throwIfAborted();
        emit({ type: "pages", received, total: page.total });
      },
    });
    // TRAP: SPEC §4 — remove VMs only after a complete read: a list whose counts do not add up removes nothing.
    if (!listing.isComplete) return failed(listing.reason ?? "the VM list was not read completely");
    records = listing.vms;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    // TRAP: SPEC §4 — a failed page is a failed list, never a shorter one.
    return failed(`VM query: ${errorMessage(error)}`);
  }

  let done = 0;
  let failure: string | undefined;
  const vms = await mapWithLimit(records, options.parallelVms ?? 16, async (record) => {
    if (failure !== undefined) return undefined;
    options.signal?.throwIfAborted();
    try {
      const [section, disks] = await Promise.all([
        client.networkConnectionSection(record.href),
        client.disks(record.href),
      ]);
      done++;
      if (done % 100 === 0 || done === records.length) {
        emit({ type: "vms", done, total: records.length });
      }
      return mapVcdVm(record, section, disks, { sessionOrgName });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // One VM whose sections could not be read fails the whole list, as with Proxmox: storing it
      // without NICs and disks would erase what we knew, and leaving it out would remove it.
      failure ??= `VM ${record.name} (${record.urn}): ${errorMessage(error)}`;
      return undefined;
    }
  });
  if (failure !== undefined) return failed(failure);
  const read = vms.filter((vm): vm is NeutralVm => vm !== undefined);
  emit({ type: "list", key, status: "ok", count: read.length });
  return { key, status: "ok", vms: read };
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
      // TRAP: SPEC §4 — edge gateways are removed only after a complete read of every page.
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
 * Reads every VM (query pages, then each VM's NICs and disks) and every edge gateway, inside one
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
    const list = await readVmList(client, options, sessionOrgName);
    options.signal?.throwIfAborted();
    const edgeGateways = await readEdgeGateways(client);
    return { lists: [list], edgeGateways };
  });
}
