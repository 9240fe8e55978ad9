import type { Confirmation, ListRead, NeutralVm, ServerText } from "@hyperlens/shared";
import { fingerprintVm } from "./fingerprint.ts";
import { decideGuard, type GuardDecision } from "./guard.ts";
import { normalizeVm } from "./normalize.ts";

/** What the plan needs to know of a stored guest. */
export interface StoredVmState {
  id: string;
  externalId: string;
  listKey: string;
  name: string;
  fingerprint: string;
  confirmation: Confirmation;
  isRemoved: boolean;
}

/** A guest seen in a list that came back, normalized and fingerprinted. */
export interface SeenVm {
  vm: NeutralVm;
  listKey: string;
  fingerprint: string;
}

/** Why a seen guest must be written. */
export type VmChange = "added" | "changed" | "restored" | "reconfirmed";

/** A seen guest whose row must be written. */
export interface PlannedWrite extends SeenVm {
  change: VmChange;
  stored?: StoredVmState;
  /** The stored record differs (new fingerprint): its NICs, IPs and disks are replaced. */
  isContentChanged: boolean;
}

/** A guest to tombstone. */
export interface PlannedRemoval {
  stored: StoredVmState;
  reason: string;
}

/** A guest kept but not seen, whose confirmation changes. */
export interface PlannedConfirmation {
  stored: StoredVmState;
  confirmation: Exclude<Confirmation, "CONFIRMED">;
}

/** Something a run did not do, and why (sync_runs.suppressed, docs/behaviour.md §10). */
export type SuppressedItem =
  | {
      kind: "list";
      key: string;
      status: Exclude<ListRead["status"], "ok">;
      reason: string;
      reasonText?: ServerText;
    }
  | { kind: "unreported_list"; key: string; kept: number }
  | {
      kind: "guard";
      subject: string;
      known: number;
      present: number;
      message: string;
      total: number;
      items: { externalId: string; name: string }[];
    }
  | { kind: "edge_gateways"; reason: string };

/** Everything one sync will do to the guests of a connection, decided before any write. */
export interface ReconcilePlan {
  /** Keys of the lists that came back ok. */
  okLists: Set<string>;
  seen: SeenVm[];
  writes: PlannedWrite[];
  unchangedCount: number;
  removals: PlannedRemoval[];
  confirmations: PlannedConfirmation[];
  guard: GuardDecision;
  suppressed: SuppressedItem[];
}

/** How many suppressed removals a run lists by name. */
export const SUPPRESSED_NAMES_CAP = 50;

/**
 * The status each list key came back with. A key reported both ok and failed counts as failed.
 */
export function listStatuses(lists: ListRead[]): Map<string, ListRead["status"]> {
  const statuses = new Map<string, ListRead["status"]>();
  for (const list of lists) {
    // TRAP: docs/behaviour.md §3 — a key reported both ok and failed did not fully come back; never treat it as ok.
    if (statuses.get(list.key) === undefined || list.status !== "ok") {
      statuses.set(list.key, list.status);
    }
  }
  return statuses;
}

/** The lists whose guests are seen: those that came back ok, and only under a key that is ok. */
export function seenLists(
  lists: ListRead[],
  statuses: Map<string, ListRead["status"]>,
): Extract<ListRead, { status: "ok" }>[] {
  return lists.flatMap((list) =>
    list.status === "ok" && statuses.get(list.key) === "ok" ? [list] : [],
  );
}

/**
 * The ids of every guest seen: all a removal decision needs (docs/behaviour.md §3 step 6), so
 * it can be made before, and without holding, the planned writes of all lists at once.
 */
export function seenIdsOf(lists: ListRead[], statuses: Map<string, ListRead["status"]>) {
  const ids = new Set<string>();
  for (const list of seenLists(lists, statuses)) for (const vm of list.vms) ids.add(vm.externalId);
  return ids;
}

/** One list's guests, normalized and fingerprinted; ids in `claimed` are skipped and claimed. */
export function collectSeen(
  list: Extract<ListRead, { status: "ok" }>,
  claimed: Set<string>,
): SeenVm[] {
  const seen: SeenVm[] = [];
  for (const raw of list.vms) {
    // A guest migrating during the read can show up in two lists; the first one wins.
    if (claimed.has(raw.externalId)) continue;
    claimed.add(raw.externalId);
    const vm = normalizeVm(raw);
    seen.push({ vm, listKey: list.key, fingerprint: fingerprintVm(vm, list.key) });
  }
  return seen;
}

/** Why a seen guest must be written, or undefined when its stored row already says it all. */
export function classify(
  item: SeenVm,
  stored: StoredVmState | undefined,
): PlannedWrite | undefined {
  if (!stored) return { ...item, change: "added", isContentChanged: true };
  const isContentChanged = stored.fingerprint !== item.fingerprint;
  if (stored.isRemoved) return { ...item, stored, change: "restored", isContentChanged };
  if (isContentChanged) return { ...item, stored, change: "changed", isContentChanged };
  if (stored.confirmation !== "CONFIRMED") {
    return { ...item, stored, change: "reconfirmed", isContentChanged };
  }
  return undefined;
}

/** What a sync does to the guests it did not see, decided from ids alone. */
export type RemovalPlan = Pick<
  ReconcilePlan,
  "okLists" | "removals" | "confirmations" | "guard" | "suppressed"
>;

/**
 * Decides removals, confirmation changes and the guard (docs/behaviour.md §3 step 6, §3.5)
 * from the stored guests, the lists' statuses and the ids seen in the lists that came back.
 */
export function planRemovals(
  stored: StoredVmState[],
  lists: ListRead[],
  seenIds: ReadonlySet<string>,
): RemovalPlan {
  const statuses = listStatuses(lists);
  const okLists = new Set([...statuses].filter(([, s]) => s === "ok").map(([key]) => key));
  const candidates: StoredVmState[] = [];
  const confirmations: PlannedConfirmation[] = [];
  const unreported = new Map<string, number>();
  const keep = (row: StoredVmState, confirmation: PlannedConfirmation["confirmation"]) => {
    if (row.confirmation !== confirmation) confirmations.push({ stored: row, confirmation });
  };
  let known = 0;
  let present = 0;
  for (const row of stored) {
    if (row.isRemoved) continue;
    const status = statuses.get(row.listKey);
    if (status === "ok") {
      known += 1;
      if (seenIds.has(row.externalId)) present += 1;
    }
    if (seenIds.has(row.externalId)) continue;
    // TRAP: docs/behaviour.md §10 — offline is not gone: rows of failed or offline lists are kept, only marked.
    if (status === "ok") candidates.push(row);
    else if (status === "failed") keep(row, "LIST_FAILED");
    else if (status === "node_offline") keep(row, "NODE_OFFLINE");
    else {
      keep(row, "NOT_CONFIRMED");
      unreported.set(row.listKey, (unreported.get(row.listKey) ?? 0) + 1);
    }
  }

  const guard = decideGuard(known, present);
  const suppressed: SuppressedItem[] = [];
  for (const list of lists) {
    if (list.status !== "ok") {
      const { key, status, reason, reasonText } = list;
      suppressed.push({ kind: "list", key, status, reason, ...(reasonText ? { reasonText } : {}) });
    }
  }
  for (const [key, kept] of unreported) suppressed.push({ kind: "unreported_list", key, kept });

  let removals: PlannedRemoval[] = [];
  if (guard.allowsRemoval) {
    removals = candidates.map((row) => ({ stored: row, reason: `not in list ${row.listKey}` }));
  } else {
    for (const row of candidates) keep(row, "NOT_CONFIRMED");
    suppressed.push({
      kind: "guard",
      subject: "guests",
      known,
      present,
      message: guard.message ?? "",
      total: candidates.length,
      items: candidates
        .slice(0, SUPPRESSED_NAMES_CAP)
        .map((row) => ({ externalId: row.externalId, name: row.name })),
    });
  }
  return { okLists, removals, confirmations, guard, suppressed };
}

/**
 * Decides what a sync does to the stored guests of one connection, given the lists it read.
 * Pure: the property tests drive it with random stores and list outcomes. The engine takes the
 * same steps list by list (run-sync.ts), so it never holds every list's planned writes at once.
 */
export function planReconcile(stored: StoredVmState[], lists: ListRead[]): ReconcilePlan {
  const statuses = listStatuses(lists);
  const claimed = new Set<string>();
  const seen = seenLists(lists, statuses).flatMap((list) => collectSeen(list, claimed));
  const storedById = new Map(stored.map((row) => [row.externalId, row]));
  const writes: PlannedWrite[] = [];
  for (const item of seen) {
    const write = classify(item, storedById.get(item.vm.externalId));
    if (write) writes.push(write);
  }
  return {
    ...planRemovals(stored, lists, claimed),
    seen,
    writes,
    unchangedCount: seen.length - writes.filter((w) => w.change !== "reconfirmed").length,
  };
}
