// What a light poll reads (docs/behaviour.md §8.7): the guests a source's lists show, without
// their details, so changes are seen between full syncs at the cost of the lists alone.
import type { NeutralPowerState, NeutralVm } from "./inventory.ts";

/** One guest as a source's list shows it. */
export interface ListedGuest {
  externalId: string;
  /** The full read's list the guest belongs to ("pve1/qemu", "vms"): a new key is a move. */
  listKey: string;
  name: string;
  /** The host it runs on, where the list tells (vCenter): another host is a move. */
  hostName?: string;
  /**
   * Omitted when the list cannot vouch for the guest (a Proxmox guest on an offline node): it
   * counts as present, and is neither compared nor read.
   */
  state?: NeutralPowerState;
}

/**
 * Every guest the lists show. Removal is only ever judged from a complete listing: a list call
 * that failed, or a paged list not read to its end, is incomplete (docs/behaviour.md §8.8).
 */
export type GuestListing =
  | { isComplete: true; guests: ListedGuest[] }
  | { isComplete: false; reason: string; guests: ListedGuest[] };

/** A guest's details, read for a light poll as the full sync reads them. */
export interface ReadGuest {
  listKey: string;
  vm: NeutralVm;
}
