// The light poll's reads of a vCenter (docs/behaviour.md §8.7): the VM list as the full sync
// reads it (whole, and per host for where each VM runs), and the details of only the VMs that
// changed. One object per poll: the VMs' details are read from the listing this poll made.
import type { GuestListing, ListedGuest, ReadGuest } from "@hyperlens/shared";
import { mapWithLimit } from "@hyperlens/shared";
import type { VcenterClient } from "../client.ts";
import type { VmListing } from "../list-vms.ts";
import type { VcenterHostSummary } from "../parse/inventory-lists.ts";
import { powerState } from "./map-vm.ts";
import { VCENTER_VM_LIST_KEY } from "./read-inventory.ts";
import { placeOf, readVcenterVm } from "./read-vm.ts";

/** The two reads of one light poll of a vCenter. */
export interface VcenterLightPoll {
  list(): Promise<GuestListing>;
  readGuests(guests: readonly ListedGuest[], signal?: AbortSignal): Promise<ReadGuest[]>;
}

/** Creates the reads of one light poll; each logs in and out (docs/behaviour.md §5). */
export function createVcenterLightPoll(client: VcenterClient): VcenterLightPoll {
  let listed: { hosts: VcenterHostSummary[]; listing: VmListing } | undefined;
  return {
    list: () =>
      client.withSession(async () => {
        const hosts = await client.hosts();
        const listing = await client.readVmListing(hosts.map((h) => h.host));
        listed = { hosts, listing };
        const hostNames = new Map(hosts.map((h) => [h.host, h.name]));
        const guests = listing.vms.map((summary): ListedGuest => {
          const host = listing.hostOf.get(summary.vm);
          const hostName = host === undefined ? undefined : hostNames.get(host);
          return {
            externalId: summary.vm,
            listKey: VCENTER_VM_LIST_KEY,
            name: summary.name,
            state: powerState(summary.powerState),
            ...(hostName === undefined ? {} : { hostName }),
          };
        });
        // TRAP: docs/behaviour.md §8.8 — a list part that failed makes the listing incomplete.
        return listing.isComplete
          ? { isComplete: true, guests }
          : { isComplete: false, reason: listing.reason ?? "incomplete", guests };
      }),
    readGuests: async (guests, signal) => {
      if (!listed || guests.length === 0) return [];
      const { hosts, listing } = listed;
      const summaries = new Map(listing.vms.map((s) => [s.vm, s]));
      const hostsById = new Map(hosts.map((h) => [h.host, h]));
      return client.withSession(async () => {
        const placement = await client.placement();
        const read = await mapWithLimit([...guests], 16, async (guest) => {
          const summary = summaries.get(guest.externalId);
          if (!summary) return undefined;
          signal?.throwIfAborted();
          try {
            const place = placeOf(summary.vm, listing.hostOf, hostsById, placement);
            return { listKey: guest.listKey, vm: await readVcenterVm(client, summary, place) };
          } catch {
            signal?.throwIfAborted();
            return undefined;
          }
        });
        return read.filter((r): r is ReadGuest => r !== undefined);
      });
    },
  };
}
