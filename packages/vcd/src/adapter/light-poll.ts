// The light poll's reads of a Cloud Director install (docs/behaviour.md §8.7): the VM query pages
// as the full sync reads them, and the NIC and disk sections of only the VMs that changed. One
// object per poll: the sections are read for the records this poll listed.
import type { GuestListing, ListedGuest, ReadGuest } from "@hyperlens/shared";
import type { VcdClient } from "../client.ts";
import type { VcdVmRecord } from "../parse/vm-records.ts";
import { mapVcdVm, powerState } from "./map-vm.ts";
import { readOrgNames } from "./org-names.ts";
import { VCD_VM_LIST_KEY } from "./read-inventory.ts";
import { readVcenterHosts } from "./vcenter-hosts.ts";
import { startVmSectionReads } from "./vm-section-reads.ts";

/** The two reads of one light poll of a Director install. */
export interface VcdLightPoll {
  list(): Promise<GuestListing>;
  readGuests(guests: readonly ListedGuest[], signal?: AbortSignal): Promise<ReadGuest[]>;
}

/** Creates the reads of one light poll; each logs in and out (docs/behaviour.md §4 step 5). */
export function createVcdLightPoll(client: VcdClient): VcdLightPoll {
  const records = new Map<string, VcdVmRecord>();
  return {
    list: () =>
      client.withSession(async () => {
        const listing = await client.listVms();
        for (const record of listing.vms) records.set(record.urn, record);
        const guests = listing.vms.map(
          (record): ListedGuest => ({
            externalId: record.urn,
            listKey: VCD_VM_LIST_KEY,
            name: record.name,
            state: powerState(record.status),
          }),
        );
        // TRAP: docs/behaviour.md §8.8 — pages whose counts do not add up make the listing incomplete.
        return listing.isComplete
          ? { isComplete: true, guests }
          : { isComplete: false, reason: listing.reason ?? "incomplete", guests };
      }),
    readGuests: async (guests, signal) => {
      const wanted = guests.flatMap((g) => {
        const record = records.get(g.externalId);
        return record ? [record] : [];
      });
      if (wanted.length === 0) return [];
      return client.withSession(async (session) => {
        const sessionOrgName = client.isProvider ? null : session.orgName;
        const context = {
          sessionOrgName,
          vcenterHosts: await readVcenterHosts(client),
          orgNames: await readOrgNames(client),
        };
        const sections = startVmSectionReads(client, {
          parallelVms: 16,
          ...(signal ? { signal } : {}),
        });
        sections.start(wanted);
        // A section that failed leaves every changed VM unwritten, and none removed.
        const read = await sections.settle();
        signal?.throwIfAborted();
        if (!read) return [];
        return wanted.flatMap((record) => {
          const found = read.get(record.href);
          return found
            ? [
                {
                  listKey: VCD_VM_LIST_KEY,
                  vm: mapVcdVm(record, found.section, found.disks, context),
                },
              ]
            : [];
        });
      });
    },
  };
}
