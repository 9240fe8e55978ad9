// Reads a whole vCenter into a neutral snapshot (docs/behaviour.md §5), inside one session that is always
// logged out. The VM list is "ok" only when every list part and every VM's details were read.

import type { ListRead, NeutralNode, NeutralVm, SourceSnapshot } from "@hyperlens/shared";
import { errorMessage, mapWithLimit } from "@hyperlens/shared";
import type { VcenterClient } from "../client.ts";
import type { VcenterHostSummary } from "../parse/inventory-lists.ts";
import type { Placement } from "../placement.ts";
import { placeOf, readVcenterVm } from "./read-vm.ts";

/** The key of vCenter's one VM list. */
export const VCENTER_VM_LIST_KEY = "vms";

/** Progress of a read, for live sync progress. */
export type VcenterReadProgress =
  | { type: "list"; key: string; status: "ok" | "skipped"; count?: number; reason?: string }
  | { type: "listing"; strategy: "whole" | "parts"; calls: number; count: number }
  | { type: "vms"; done: number; total: number };

/** Options of {@link readVcenterInventory}. */
export interface VcenterReadOptions {
  onProgress?: (event: VcenterReadProgress) => void;
  /** VMs whose details are read at once (default 16); hyper-http still caps per connection. */
  parallelVms?: number;
  signal?: AbortSignal;
}

function toNode(host: VcenterHostSummary, placement: Placement): NeutralNode {
  const place = placement.hostPlace.get(host.host);
  return {
    externalId: host.host,
    name: host.name,
    ...(place?.cluster ? { clusterName: place.cluster.name } : {}),
    isOnline: host.connectionState === "CONNECTED",
    details: {
      connectionState: host.connectionState,
      powerState: host.powerState,
      datacenter: place?.datacenter?.name ?? null,
      cluster: place?.cluster?.cluster ?? null,
    },
  };
}

/**
 * Reads hosts, their places, every VM (list split past the cap, then each VM's details and guest
 * networking), inside one session that is logged out afterwards whatever happened. Throws only when
 * the login fails or the read is aborted; any other failure becomes a failed list.
 */
export async function readVcenterInventory(
  client: VcenterClient,
  options: VcenterReadOptions = {},
): Promise<SourceSnapshot> {
  const emit = options.onProgress ?? (() => {});
  const key = VCENTER_VM_LIST_KEY;
  const failed = (reason: string, nodes?: NeutralNode[]): SourceSnapshot => {
    emit({ type: "list", key, status: "skipped", reason });
    return { ...(nodes ? { nodes } : {}), lists: [{ key, status: "failed", reason }] };
  };

  return client.withSession(async () => {
    let hosts: VcenterHostSummary[];
    let placement: Placement;
    try {
      [hosts, placement] = await Promise.all([client.hosts(), client.placement()]);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // Without hosts there is neither a split nor a location: the list is unknown, not empty.
      return failed(`hosts and clusters: ${errorMessage(error)}`);
    }
    const nodes = hosts.map((host) => toNode(host, placement));
    const hostsById = new Map(hosts.map((h) => [h.host, h]));

    let listing: Awaited<ReturnType<VcenterClient["readVmListing"]>>;
    try {
      listing = await client.readVmListing(hosts.map((h) => h.host));
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // TRAP: docs/behaviour.md §5 — a failed list read is a failed list, never an empty one.
      return failed(`VM list: ${errorMessage(error)}`, nodes);
    }
    // TRAP: docs/behaviour.md §5 — remove VMs only after a complete read: a part that failed removes nothing.
    if (!listing.isComplete) {
      return failed(listing.reason ?? "the VM list was not read completely", nodes);
    }
    emit({
      type: "listing",
      strategy: listing.strategy,
      calls: listing.calls,
      count: listing.vms.length,
    });
    options.signal?.throwIfAborted();

    let done = 0;
    let failure: string | undefined;
    const vms = await mapWithLimit(listing.vms, options.parallelVms ?? 16, async (summary) => {
      if (failure !== undefined) return undefined;
      options.signal?.throwIfAborted();
      try {
        const place = placeOf(summary.vm, listing.hostOf, hostsById, placement);
        const vm = await readVcenterVm(client, summary, place);
        done++;
        if (done % 100 === 0 || done === listing.vms.length) {
          emit({ type: "vms", done, total: listing.vms.length });
        }
        return vm;
      } catch (error) {
        if (options.signal?.aborted) throw error;
        // One VM whose details could not be read fails the whole list, as with the other sources:
        // storing it without NICs and disks would erase what we knew, leaving it out would remove it.
        failure ??= `VM ${summary.name} (${summary.vm}): ${errorMessage(error)}`;
        return undefined;
      }
    });
    if (failure !== undefined) return failed(failure, nodes);
    const read = vms.filter((vm): vm is NeutralVm => vm !== undefined);
    emit({ type: "list", key, status: "ok", count: read.length });
    const list: ListRead = { key, status: "ok", vms: read };
    return { nodes, lists: [list] };
  });
}
