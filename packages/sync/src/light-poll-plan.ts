// What a light poll does, decided from the lists alone (docs/behaviour.md §8.7, §8.8): which
// guests changed and must be read, and which are gone. Pure: tests drive it with plain rows.
import type { GuestListing, ListedGuest, NeutralPowerState } from "@hyperlens/shared";
import { decideGuard, type GuardDecision } from "./guard.ts";
import type { StoredVmState } from "./plan.ts";

/** What the light poll needs to know of a stored guest. */
export interface StoredListedState extends StoredVmState {
  state: NeutralPowerState;
  hostName: string | null;
}

/** How a listed guest differs from its stored row. */
export type ListedChange = "added" | "restored" | "moved" | "renamed" | "power";

/** A listed guest whose details must be read. */
export interface GuestToRead {
  guest: ListedGuest;
  changes: ListedChange[];
}

/** Everything one light poll will do, before any detail is read. */
export interface LightPollPlan {
  toRead: GuestToRead[];
  /** Stored guests missing from a complete listing, when the guard allows removing them. */
  removals: StoredListedState[];
  /** Set when the listing was complete; removal was judged by it. */
  guard?: GuardDecision;
  /** Guests the guard held back. */
  heldBack: number;
  /** The guests the guard held back, for the run's report. */
  held: StoredListedState[];
}

function changesOf(guest: ListedGuest, stored: StoredListedState | undefined): ListedChange[] {
  if (!stored) return ["added"];
  if (stored.isRemoved) return ["restored"];
  const changes: ListedChange[] = [];
  const isOnOtherHost = guest.hostName !== undefined && guest.hostName !== stored.hostName;
  if (guest.listKey !== stored.listKey || isOnOtherHost) changes.push("moved");
  // TRAP: docs/behaviour.md §8.8 — a guest the list cannot vouch for (offline node) is present, not compared.
  if (guest.state === undefined) return changes;
  if (guest.name !== stored.name) changes.push("renamed");
  if (guest.state !== stored.state) changes.push("power");
  return changes;
}

/**
 * Compares a listing with the stored guests. Removal is judged only from a complete listing and
 * only when the guard (docs/behaviour.md §3.5) allows it, counted over every stored guest:
 * `known` of them live, when `stored` holds only the candidates (light-poll-candidates.ts).
 */
export function planLightPoll(
  stored: StoredListedState[],
  listing: GuestListing,
  known = stored.filter((row) => !row.isRemoved).length,
): LightPollPlan {
  const storedById = new Map(stored.map((row) => [row.externalId, row]));
  const listedIds = new Set<string>();
  const toRead: GuestToRead[] = [];
  for (const guest of listing.guests) {
    // A guest migrating during the read can show up twice; the first one wins, as in the full sync.
    if (listedIds.has(guest.externalId)) continue;
    listedIds.add(guest.externalId);
    const row = storedById.get(guest.externalId);
    const changes = changesOf(guest, row);
    // A guest on an offline node cannot be read: its move waits for its node or the full sync.
    if (changes.length && guest.state !== undefined) toRead.push({ guest, changes });
  }
  // TRAP: docs/behaviour.md §8.8 — a listing that failed or stopped short removes nothing.
  if (!listing.isComplete) return { toRead, removals: [], heldBack: 0, held: [] };
  const missing = stored.filter((row) => !row.isRemoved && !listedIds.has(row.externalId));
  // TRAP: docs/behaviour.md §3.5 — counted over every live guest, not the candidates only, or a
  // listing missing most guests would look like one missing all of the few compared.
  const guard = decideGuard(known, known - missing.length);
  if (!guard.allowsRemoval) {
    return { toRead, removals: [], guard, heldBack: missing.length, held: missing };
  }
  return { toRead, removals: missing, guard, heldBack: 0, held: [] };
}
