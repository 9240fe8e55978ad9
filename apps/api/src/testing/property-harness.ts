// Shared pieces of the per-source property suites: run counts and replay from the environment, an
// in-memory store the pure runs reconcile into, the docs/behaviour.md §3 removal oracle, and the end-to-end
// runs: their database, stand-in, client and four syncs, with database digests.
import type { PrismaClient } from "@hyperlens/db";
import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import type { ConnectionKind, ListRead, NeutralVm, SourceSnapshot } from "@hyperlens/shared";
import type { FaultSwitches } from "@hyperlens/standins/testing";
import { planReconcile, runSync, type StoredVmState } from "@hyperlens/sync";
import fc from "fast-check";
import { afterAll, beforeAll, expect } from "vitest";

const positive = (text: string | undefined, fallback: number) => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

/** Generated runs of the pure (adapter logic + planner) property, per source. */
export const PURE_RUNS = positive(process.env.HYPERLENS_PROPERTY_RUNS, 1000);
/** Generated runs that go stand-in → real adapter → runSync on PGlite, per source. */
const E2E_RUNS = positive(process.env.HYPERLENS_PROPERTY_E2E_RUNS, 20);

/** fast-check parameters: the run count, and the seed/path of a failure to replay. */
export function propertyParameters<T>(numRuns: number, isSlow = false): fc.Parameters<T> {
  const seed = process.env.HYPERLENS_PROPERTY_SEED;
  const path = process.env.HYPERLENS_PROPERTY_PATH;
  return {
    numRuns,
    // Shrinking an end-to-end run costs seconds per step; the seed and path replay it instead.
    endOnFailure: isSlow,
    ...(seed ? { seed: Number(seed) } : {}),
    ...(path ? { path } : {}),
  };
}

function failWithReplay<T>(details: fc.RunDetails<T>, message: string | undefined): void {
  if (!details.failed) return;
  // TRAP: issue 8 — a failing seed must be printed and replayable, or a rare failure is lost.
  throw new Error(
    `${message ?? "property failed"}\nCause: ${String(details.errorInstance)}\nReplay: HYPERLENS_PROPERTY_SEED=${details.seed} HYPERLENS_PROPERTY_PATH=${details.counterexamplePath ?? ""}`,
  );
}

/**
 * Checks a property with {@link propertyParameters}; a failure names the seed and path to replay
 * (`HYPERLENS_PROPERTY_SEED`, `HYPERLENS_PROPERTY_PATH`).
 */
export function checkProperty<T>(property: fc.IProperty<T>, numRuns: number): void {
  const details = fc.check(property, propertyParameters<T>(numRuns));
  failWithReplay(details, fc.defaultReportMessage(details));
}

/** {@link checkProperty} for async properties. */
export async function checkAsyncProperty<T>(
  property: fc.IAsyncProperty<T>,
  numRuns: number,
  isSlow = true,
): Promise<void> {
  const details = await fc.check(property, propertyParameters<T>(numRuns, isSlow));
  failWithReplay(details, await fc.asyncDefaultReportMessage(details));
}

/** What one list outcome means for the oracle: `ok` lists came back, others did not. */
function statusesOf(lists: ListRead[]): Map<string, ListRead["status"]> {
  const statuses = new Map<string, ListRead["status"]>();
  for (const list of lists) {
    if (statuses.get(list.key) === undefined || list.status !== "ok")
      statuses.set(list.key, list.status);
  }
  return statuses;
}

/**
 * The removal rule of docs/behaviour.md §3/§4 written independently of the planner: a known guest is removed
 * iff its list came back without it AND, over the lists that came back, at least half of the
 * known guests are present.
 */
export function expectedRemovals(
  store: Map<string, StoredVmState>,
  lists: ListRead[],
): Set<string> {
  const statuses = statusesOf(lists);
  const seen = new Set<string>();
  for (const list of lists) {
    if (list.status === "ok" && statuses.get(list.key) === "ok")
      for (const vm of list.vms) seen.add(vm.externalId);
  }
  const known = [...store.values()].filter(
    (row) => !row.isRemoved && statuses.get(row.listKey) === "ok",
  );
  const present = known.filter((row) => seen.has(row.externalId)).length;
  if (known.length > 0 && present * 2 < known.length) return new Set();
  return new Set(known.filter((row) => !seen.has(row.externalId)).map((row) => row.externalId));
}

/**
 * Plans one sync against the in-memory store, checks the plan against the oracle, applies it and
 * returns the ids removed and whether the guard fired. `onHypervisor` maps each guest that exists to the list it is in.
 */
export function reconcileInMemory(
  store: Map<string, StoredVmState>,
  lists: ListRead[],
  onHypervisor: Map<string, string>,
  honestLists: ReadonlySet<string>,
): { removed: Set<string>; guardFired: boolean } {
  const plan = planReconcile([...store.values()], lists);
  const removed = new Set(plan.removals.map((r) => r.stored.externalId));
  const statuses = statusesOf(lists);
  for (const id of removed) {
    const row = store.get(id);
    // Removed only from a list that came back, never one that failed or whose node was offline.
    expect(
      row && statuses.get(row.listKey),
      `removed ${id} from a list that did not come back`,
    ).toBe("ok");
    // A guest that is still on the hypervisor in the list it was known in is never removed.
    if (row && honestLists.has(row.listKey))
      expect(onHypervisor.get(id), `removed ${id}, still in ${row.listKey}`).not.toBe(row.listKey);
  }
  expect([...removed].sort(), "removals differ from the rule of docs/behaviour.md §3.5").toEqual(
    [...expectedRemovals(store, lists)].sort(),
  );
  for (const write of plan.writes) {
    store.set(write.vm.externalId, {
      id: write.stored?.id ?? write.vm.externalId,
      externalId: write.vm.externalId,
      listKey: write.listKey,
      name: write.vm.name,
      fingerprint: write.fingerprint,
      confirmation: "CONFIRMED",
      isRemoved: false,
    });
  }
  for (const { stored } of plan.removals)
    store.set(stored.externalId, { ...stored, isRemoved: true });
  for (const { stored, confirmation } of plan.confirmations) {
    const row = store.get(stored.externalId);
    if (row && !removed.has(row.externalId)) store.set(row.externalId, { ...row, confirmation });
  }
  return { removed, guardFired: !plan.guard.allowsRemoval };
}

/** Ids the store holds as present. */
export const presentIds = (store: Map<string, StoredVmState>) =>
  new Set([...store.values()].filter((r) => !r.isRemoved).map((r) => r.externalId));

/** A connection row for an end-to-end run. */
async function createConnectionRow(
  prisma: PrismaClient,
  kind: ConnectionKind,
  baseUrl: string,
  name: string,
): Promise<string> {
  const row = await prisma.connection.create({
    data: { kind, name, baseUrl, username: "inventory" },
  });
  return row.id;
}

/** Every guest row of a connection with its NICs, as comparable text (order-free). */
export async function inventoryDigest(prisma: PrismaClient, connectionId: string) {
  const rows = await prisma.virtualMachine.findMany({
    where: { connectionId },
    include: { nics: true },
    orderBy: { externalId: "asc" },
  });
  return rows.map((row) => ({
    externalId: row.externalId,
    listKey: row.listKey,
    fingerprint: row.fingerprint,
    confirmation: row.confirmation,
    isRemoved: row.removedAt !== null,
    nics: row.nics.map((n) => `${n.key}=${n.mac ?? ""}`).sort(),
  }));
}

/** The present (not removed) guests of a connection, by external id. */
export async function presentRows(prisma: PrismaClient, connectionId: string) {
  const rows = await inventoryDigest(prisma, connectionId);
  return new Map(rows.filter((r) => !r.isRemoved).map((r) => [r.externalId, r]));
}

/** The guests of the ok lists of a snapshot, by external id, with their list key. */
export function seenInSnapshot(
  snapshot: SourceSnapshot,
): Map<string, { vm: NeutralVm; listKey: string }> {
  const failed = new Set(snapshot.lists.filter((l) => l.status !== "ok").map((l) => l.key));
  const seen = new Map<string, { vm: NeutralVm; listKey: string }>();
  for (const list of snapshot.lists) {
    if (list.status !== "ok" || failed.has(list.key)) continue;
    for (const vm of list.vms)
      if (!seen.has(vm.externalId)) seen.set(vm.externalId, { vm, listKey: list.key });
  }
  return seen;
}

/**
 * The end-to-end invariants of one sync: a FAILED run changed no guest row; a guest removed by
 * this run was in a list that came back without it; a guest written has exactly the NICs read.
 */
export async function expectSyncInvariants(
  prisma: PrismaClient,
  connectionId: string,
  before: Awaited<ReturnType<typeof inventoryDigest>>,
  outcome: string,
  snapshot: SourceSnapshot | undefined,
) {
  const after = await inventoryDigest(prisma, connectionId);
  if (outcome === "FAILED" || !snapshot) {
    expect(after, "a failed sync changed guest rows").toEqual(before);
    return;
  }
  const okKeys = new Set(snapshot.lists.filter((l) => l.status === "ok").map((l) => l.key));
  for (const l of snapshot.lists) if (l.status !== "ok") okKeys.delete(l.key);
  const seen = seenInSnapshot(snapshot);
  const wasPresent = new Map(before.filter((r) => !r.isRemoved).map((r) => [r.externalId, r]));
  for (const row of after) {
    const prior = wasPresent.get(row.externalId);
    if (row.isRemoved && prior) {
      expect(okKeys.has(prior.listKey), `${row.externalId} removed from a list that failed`).toBe(
        true,
      );
      expect(seen.has(row.externalId), `${row.externalId} removed while seen`).toBe(false);
    }
    const read = seen.get(row.externalId);
    if (read && !row.isRemoved) {
      // No half-written guest: the row carries the NICs of the read that wrote it.
      const macs = read.vm.nics.map((n) => `${n.key}=${n.mac?.toLowerCase() ?? ""}`).sort();
      expect(row.nics, `${row.externalId} NICs`).toEqual(macs);
    }
  }
}

/** A change to the hypervisor between two syncs; indexes are taken modulo what exists. */
export type WorldChange =
  | { kind: "remove"; pick: number }
  | { kind: "add"; list: number }
  | { kind: "move"; pick: number; list: number };

/** Random changes between syncs: guests appearing, disappearing and moving. */
export const worldChanges = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant("add" as const), list: fc.nat() }),
    fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), list: fc.nat() }),
  ),
  { maxLength: 8 },
);

/**
 * The hypervisor of a pure run: guest id → the list (or, for vCenter, the host) it is in. Ids are
 * never reused, as Director URNs and vCenter morefs are not (Proxmox reuses a VMID only for a new
 * guest); `idPrefix` makes them look like the source's own (`vm-` for vCenter morefs).
 */
export class World {
  readonly guests = new Map<string, string>();
  #next = 1;
  constructor(
    readonly keys: readonly string[],
    initial: number[],
    readonly idPrefix = "",
  ) {
    for (const list of initial) this.add(list);
  }
  add(list: number): string {
    const id = `${this.idPrefix}${this.#next++}`;
    this.guests.set(id, this.keys[list % this.keys.length] ?? "");
    return id;
  }
  apply(changes: readonly WorldChange[]) {
    for (const change of changes) {
      const ids = [...this.guests.keys()];
      if (change.kind === "add") this.add(change.list);
      else if (ids.length === 0) continue;
      else {
        const id = ids[change.pick % ids.length] ?? "";
        if (change.kind === "remove") this.guests.delete(id);
        else this.guests.set(id, this.keys[change.list % this.keys.length] ?? "");
      }
    }
  }
  in(key: string): string[] {
    return [...this.guests].filter(([, list]) => list === key).map(([id]) => id);
  }
  /** Guest id → the list key it is read in; `listOf` maps a place to its list (default: itself). */
  lists(listOf: (place: string) => string = (place) => place): Map<string, string> {
    return new Map([...this.guests].map(([id, place]) => [id, listOf(place)]));
  }
}

/** A minimal neutral guest for the pure runs (one NIC derived from the id). */
export function neutralVm(id: string, node = "n"): NeutralVm {
  const n = Number(id) || 0;
  const mac = `bc:24:11:00:${((n >> 8) & 0xff).toString(16).padStart(2, "0")}:${(n & 0xff).toString(16).padStart(2, "0")}`;
  return {
    externalId: id,
    name: `vm-${id}`,
    kind: "VM",
    state: "RUNNING",
    cpuCount: 2,
    memoryBytes: 1024 ** 3,
    diskTotalBytes: 0,
    guestOs: "l26",
    isTemplate: false,
    tags: [],
    location: { nodeName: node },
    nics: [{ key: "net0", mac, network: "vmbr0", model: "virtio", isConnected: true }],
    reportedAddresses: [],
    ips: [],
    ipsFromGuestAreLive: false,
    disks: [],
    details: {},
  };
}

/**
 * Liveness: once every list comes back whole, every guest of the hypervisor is stored on its list,
 * and (unless the guard fired) nothing else is.
 */
export function expectConverges(
  store: Map<string, StoredVmState>,
  world: World,
  lists: ListRead[],
  listOf?: (place: string) => string,
): void {
  const onHypervisor = world.lists(listOf);
  const { guardFired } = reconcileInMemory(
    store,
    lists,
    onHypervisor,
    new Set(onHypervisor.values()),
  );
  const present = new Map(
    [...store.values()].filter((r) => !r.isRemoved).map((r) => [r.externalId, r.listKey]),
  );
  const misplaced = [...onHypervisor].filter(([id, list]) => present.get(id) !== list);
  expect(misplaced, "guests not stored on their list after a whole read").toEqual([]);
  if (!guardFired)
    expect(present.size, "stale guests left after a whole read").toBe(world.guests.size);
  // Idempotence: the same read again may still remove what a fired guard kept (the guard counts
  // the rows just written), but once applied, a third time writes and removes nothing.
  reconcileInMemory(store, lists, onHypervisor, new Set(onHypervisor.values()));
  const again = planReconcile([...store.values()], lists);
  expect(again.writes.length + again.removals.length, "a repeated read changed rows").toBe(0);
}

/** One end-to-end run of a source: its connection row, its read, and how its hypervisor changes. */
interface EndToEndRun {
  prisma: PrismaClient;
  connectionId: string;
  source: ConnectionKind;
  /** The real adapter over the stand-in. */
  read(): Promise<SourceSnapshot>;
  /** Checked after every sync, failed ones too (e.g. no session left open). */
  afterEachSync?(): void;
  /** Changes the hypervisor (remove, move, take offline) and installs the run's faults. */
  change(): void;
  /** Whether a guest known before the change is still on the hypervisor where it was known. */
  isStillThere(externalId: string, listKey: string): boolean;
  clearFaults(): void;
  /** Every guest's external id once the faults are cleared. */
  expected(): string[];
}

/**
 * The four syncs of an end-to-end run: a clean first sync succeeds; the sync after the change and
 * its faults keeps the invariants and removes no guest still there; once the faults clear the
 * rows are the hypervisor's (unless the guard held them); the same input again writes nothing.
 */
async function runEndToEnd(run: EndToEndRun): Promise<void> {
  const { prisma, connectionId } = run;
  let snapshot: SourceSnapshot | undefined;
  const sync = async () => {
    snapshot = undefined;
    const result = await runSync({
      prisma,
      connectionId,
      source: run.source,
      trigger: "MANUAL",
      read: async () => {
        snapshot = await run.read();
        return snapshot;
      },
    });
    run.afterEachSync?.();
    return result;
  };
  const first = await sync();
  expect(first.outcome, first.message).toBe("SUCCESS");
  const known = await presentRows(prisma, connectionId);
  run.change();
  const before = await inventoryDigest(prisma, connectionId);
  const second = await sync();
  await expectSyncInvariants(prisma, connectionId, before, second.outcome, snapshot);
  const after = await presentRows(prisma, connectionId);
  const lost = [...known.values()].filter(
    (row) => run.isStillThere(row.externalId, row.listKey) && !after.has(row.externalId),
  );
  expect(
    lost.map((row) => row.externalId),
    "guests still on the hypervisor were removed",
  ).toEqual([]);
  run.clearFaults();
  const third = await sync();
  expect(third.outcome, third.message).toBe(third.guardFired ? "PARTIAL" : "SUCCESS");
  if (!third.guardFired) {
    const rows = await presentRows(prisma, connectionId);
    expect([...rows.keys()].sort()).toEqual(run.expected().sort());
  }
  // A guard that fired while restoring guests counts them as known on the next run, which may then
  // remove what it held back: the input is the same twice only from the run after that.
  if (third.guardFired) await sync();
  const repeat = await sync();
  expect(repeat.counts.rowsWritten, "the same input twice writes nothing").toBe(0);
}

/** The database of a file's end-to-end runs: created before its tests, closed after them. */
export function useFileDatabase(): { readonly prisma: PrismaClient } {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });
  return {
    get prisma() {
      if (!db) throw new Error("the file's database exists only while its tests run");
      return db.prisma;
    },
  };
}

/** The HTTP options every end-to-end client gets: the stand-in's address and CA, one attempt. */
export interface EndToEndHttp {
  connectionId: string;
  baseUrl: string;
  caPem: string;
  /** Always true here: the stand-ins listen on loopback. */
  allowLoopbackTargets: boolean;
  retry: { attempts: number };
}

/** How one end-to-end run reads, changes the hypervisor and checks it ({@link runEndToEnd}). */
export type EndToEndSteps = Omit<EndToEndRun, "prisma" | "connectionId" | "source">;

/** What a source's end-to-end property supplies for each generated scenario. */
export interface EndToEndSource<Scenario, Standin, Client> {
  source: EndToEndRun["source"];
  /** The scenario's stand-in. */
  start(scenario: Scenario): Promise<Standin>;
  /** The source's real client over the stand-in. */
  connect(standin: Standin, http: EndToEndHttp): Client;
  /** The run's steps, over that stand-in and client. */
  steps(scenario: Scenario, standin: Standin, client: Client): EndToEndSteps;
}

/**
 * The end-to-end property of a source: for each generated scenario (E2E_RUNS of them, replayable)
 * a fresh stand-in, the real client over it and a connection row go through {@link runEndToEnd};
 * the client and the stand-in are closed whatever happened.
 */
export async function checkEndToEnd<
  Scenario extends { seed: number },
  Standin extends { url: string; caPem: string; close(): Promise<void> },
  Client extends { close(): Promise<void> },
>(
  prisma: PrismaClient,
  scenario: fc.Arbitrary<Scenario>,
  source: EndToEndSource<Scenario, Standin, Client>,
): Promise<void> {
  let run = 0;
  await checkAsyncProperty(
    fc.asyncProperty(scenario, async (sc) => {
      run += 1;
      const name = `${source.source.toLowerCase()}-${run}`;
      const standin = await source.start(sc);
      try {
        const client = source.connect(standin, {
          connectionId: name,
          baseUrl: standin.url,
          caPem: standin.caPem,
          // The stand-ins listen on loopback, which hyper-http refuses unless told otherwise.
          allowLoopbackTargets: true,
          retry: { attempts: 1 },
        });
        try {
          const connectionId = await createConnectionRow(
            prisma,
            source.source,
            standin.url,
            `${name}-${sc.seed}`,
          );
          await runEndToEnd({
            prisma,
            connectionId,
            source: source.source,
            ...source.steps(sc, standin, client),
          });
        } finally {
          await client.close();
        }
      } finally {
        await standin.close();
      }
    }),
    E2E_RUNS,
  );
}

/**
 * A session expiry for a source with sessions (Director, vCenter): once `arm`ed by the change, the
 * first `fire(true)` of a read expires every session for real (its token answers 401 from the
 * next request on), and disarms.
 */
export function midReadExpiry(standin: { expireAllSessions(): void }) {
  let isArmed = false;
  return {
    arm(on: boolean) {
      isArmed = on;
    },
    fire(isHit: boolean) {
      if (!isHit || !isArmed) return;
      isArmed = false;
      standin.expireAllSessions();
    },
  };
}

/** What goes wrong with a list read on any source: an error status, a cut body, a proxy's HTML page, a reset. */
export type ListFaultKind = number | "truncate" | "html" | "reset";

/** Installs a list fault on `path` from its Nth request on, for the rest of the read. */
export function installListFault(
  faults: FaultSwitches,
  path: string,
  kind: ListFaultKind,
  nth: number,
): void {
  const options = { nth, times: 10 };
  if (kind === "truncate") faults.truncate(path, options);
  else if (kind === "html") faults.html(path, { ...options, status: 502 });
  else if (kind === "reset") faults.reset(path, options);
  else faults.fail(path, kind, options);
}
