import { Prisma, type PrismaClient, type RawSql, rawTransaction } from "@hyperlens/db";
import {
  type ConnectionKind,
  englishText,
  errorClassOf,
  errorText,
  type JsonObject,
  type ServerText,
  type SourceSnapshot,
  type SyncCounts,
  type SyncProgressEvent,
  type SyncRunOutcome,
  type SyncTrigger,
  serverText,
} from "@hyperlens/shared";
import { compiledAddressRules, readEffectiveAddressRules } from "./address-rules-store.ts";
import { withResolvedAddresses } from "./addresses.ts";
import { diffWrite } from "./changes.ts";
import { edgeGatewayEvents, runOutcomeEvents } from "./feed-events.ts";
import { appendInventoryEvents, type NewInventoryEvent } from "./inventory-events.ts";
import { recordInventorySample } from "./inventory-samples.ts";
import { EDGE_GATEWAY_TABLE, NODE_TABLE, planKeyed, writeKeyed } from "./keyed-entities.ts";
import {
  classify,
  collectSeen,
  listStatuses,
  type PlannedWrite,
  planReconcile,
  planRemovals,
  type RemovalPlan,
  type StoredVmState,
  SUPPRESSED_NAMES_CAP,
  type SuppressedItem,
  seenIdsOf,
  seenLists,
} from "./plan.ts";
import { buildPreview, type SyncPreview } from "./preview.ts";
import { loadPrevious } from "./previous.ts";
import { refreshStatistics } from "./refresh-statistics.ts";
import { recordRunCounts } from "./run-counts.ts";
import { chunk } from "./sql.ts";
import { type WriteContext, writeContextOf } from "./write-context.ts";
import { writeRemovals } from "./write-removals.ts";
import { countsOf, tallyOfPlan, tallyWrites, type WriteTally } from "./write-tally.ts";
import { VM_CHUNK_SIZE, writeVmChunk } from "./write-vms.ts";

/** Everything one sync of one connection needs. */
export interface RunSyncOptions {
  prisma: PrismaClient;
  connectionId: string;
  source: ConnectionKind;
  trigger: SyncTrigger;
  /** Compute what would change and store it as the run's preview; write no inventory rows. */
  dryRun?: boolean;
  correlationId?: string;
  /**
   * Reads the source (the adapter); stops when `signal` aborts. It emits no progress: the engine
   * reports each list once, from the snapshot it returns. The engine lets go of each guest once
   * it is written, so the snapshot should be held by nothing else.
   */
  read: (signal?: AbortSignal) => Promise<SourceSnapshot>;
  /**
   * Stops the sync at its safe point, the read: an aborted sync is recorded as CANCELLED and
   * writes no inventory. Once reconciling has begun the run finishes (its writes are bounded).
   */
  signal?: AbortSignal;
  emit?: (event: SyncProgressEvent) => void;
  /**
   * Told after each transaction that appended change-feed events has committed (docs/behaviour.md
   * §14.6): subscribers then read the new rows themselves.
   */
  onFeedAdvanced?: () => void;
  /** The clock (tests). */
  now?: () => Date;
}

/** How a sync ended, as stored on its sync_runs row. */
export interface SyncResult {
  syncRunId: string;
  /** CANCELLED: stopped at the safe point (shutdown, a lost lease); nothing was written. */
  outcome: SyncRunOutcome | "CANCELLED";
  counts: SyncCounts;
  message: string;
  guardFired: boolean;
  suppressed: SuppressedItem[];
  /** Dry runs only. */
  preview?: SyncPreview;
  /** FAILED only: the error class ("unreachable", "auth", … or "internal"). */
  errorClass?: string;
}

/**
 * The counts of a sync that did nothing; spread under a stored run's counts, a count the row
 * lacks reads as 0. Frozen: every caller shares this one object.
 */
export const ZERO_COUNTS: Readonly<SyncCounts> = Object.freeze({
  seen: 0,
  added: 0,
  changed: 0,
  restored: 0,
  removed: 0,
  unchanged: 0,
  rowsWritten: 0,
});

const toJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue;

/** What a run did and did not do, one text per sentence (docs/behaviour.md §11.4). */
function describe(counts: SyncCounts, suppressed: SuppressedItem[], dryRun: boolean): ServerText[] {
  const { seen, added, changed, restored, removed, unchanged } = counts;
  const parts = [
    serverText("syncSummary", {
      seen,
      dryRun: String(dryRun),
      added,
      changed,
      restored,
      removed,
      unchanged,
    }),
  ];
  for (const item of suppressed) {
    if (item.kind === "list") {
      const reason = item.reasonText ?? item.reason;
      parts.push(serverText("syncListSkipped", { list: item.key, status: item.status, reason }));
    } else if (item.kind === "unreported_list") {
      parts.push(serverText("syncListUnreported", { list: item.key, kept: item.kept }));
    } else if (item.kind === "guard") {
      const subject = item.subject.replace(/ /g, "_");
      parts.push(serverText("syncGuardFired", { ...item, subject }));
    } else {
      parts.push(serverText("syncEdgeGatewaysKept", { reason: item.reason }));
    }
  }
  return parts;
}

/**
 * Runs one sync of a connection: records a sync_runs row, reads the source, reconciles the
 * snapshot against the database (the only place that does), and records the outcome on the run
 * and the connection. Never throws for a failed read: that is a FAILED run.
 */
export async function runSync(options: RunSyncOptions): Promise<SyncResult> {
  const { prisma, connectionId, dryRun = false } = options;
  const clock = options.now ?? (() => new Date());
  const emit = (event: SyncProgressEvent) => {
    try {
      options.emit?.(event);
    } catch {
      // A listener failing must not fail the sync.
    }
  };
  const connection = await prisma.connection.findUniqueOrThrow({
    where: { id: connectionId },
    select: { lastSuccessAt: true },
  });
  const startedAt = clock();
  const run = await prisma.syncRun.create({
    data: {
      connectionId,
      trigger: options.trigger,
      isDryRun: dryRun,
      correlationId: options.correlationId ?? crypto.randomUUID(),
      startedAt,
    },
  });
  emit({ type: "started", connectionId, syncRunId: run.id, dryRun });
  const ctx = writeContextOf(
    { id: run.id, connectionId, startedAt },
    options.source,
    connection.lastSuccessAt,
    options.onFeedAdvanced,
  );

  try {
    emit({ type: "phase", phase: "reading" });
    const snapshot = consumable(await options.read(options.signal));
    // TRAP: docs/behaviour.md §8 — a sync stopped during its read must remove nothing: a snapshot that arrives
    // after the stop may be partial (a read cut short), so it is never reconciled.
    options.signal?.throwIfAborted();
    return await reconcile(options, ctx, snapshot, emit, clock);
  } catch (error) {
    if (options.signal?.aborted) return recordCancelled(options, run.id, clock, emit);
    const errorClass = errorClassOf(error);
    const message = error instanceof Error ? error.message : String(error);
    // A failure the door framed has a code; its inner words stay the hypervisor's (§11.4).
    const failure = errorText(error);
    const messageTexts = failure ? toJson([failure]) : Prisma.DbNull;
    const finishedAt = clock();
    const feed = dryRun
      ? []
      : runOutcomeEvents(ctx, "FAILED", { message, errorClass, at: finishedAt });
    await commitWithFeed(prisma, ctx, feed, async (tx) => {
      await tx.syncRun.update({
        where: { id: run.id },
        data: {
          outcome: "FAILED",
          finishedAt,
          counts: toJson(ZERO_COUNTS),
          message,
          messageTexts,
          errorClass,
        },
      });
      if (!dryRun) {
        await tx.connection.update({
          where: { id: connectionId },
          data: {
            lastSyncAt: finishedAt,
            lastSyncOutcome: "FAILED",
            lastSyncMessage: message,
            lastSyncMessageTexts: messageTexts,
            lastSyncCounts: toJson(ZERO_COUNTS),
            consecutiveFailures: { increment: 1 },
            lastErrorClass: errorClass,
          },
        });
      }
    });
    emit({ type: "failed", errorClass, message, ...(failure ? { messageTexts: [failure] } : {}) });
    return {
      syncRunId: run.id,
      outcome: "FAILED",
      counts: ZERO_COUNTS,
      message,
      guardFired: false,
      suppressed: [],
      errorClass,
    };
  }
}

/**
 * Runs `write` in one transaction with `feed` appended last, and tells ctx.onFeedAdvanced once it
 * has committed. A preview passes no events.
 */
export async function commitWithFeed(
  prisma: PrismaClient,
  ctx: WriteContext,
  feed: NewInventoryEvent[],
  write: (tx: Prisma.TransactionClient) => Promise<void>,
): Promise<void> {
  const appended = await prisma.$transaction(async (tx) => {
    await write(tx);
    return appendInventoryEvents(tx, feed);
  });
  if (appended) ctx.onFeedAdvanced?.();
}

function reasonOf(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name !== "AbortError") return reason.message;
  if (typeof reason === "string" && reason) return reason;
  return "The sync was stopped before it finished reading.";
}

/** A stopped sync: the run says so; the connection's health and its inventory are untouched. */
async function recordCancelled(
  options: RunSyncOptions,
  syncRunId: string,
  clock: () => Date,
  emit: (event: SyncProgressEvent) => void,
): Promise<SyncResult> {
  const message = `Cancelled: ${reasonOf(options.signal)} Nothing was changed.`;
  await options.prisma.syncRun.update({
    where: { id: syncRunId },
    data: {
      outcome: "CANCELLED",
      finishedAt: clock(),
      counts: toJson(ZERO_COUNTS),
      message,
      errorClass: "cancelled",
    },
  });
  emit({ type: "failed", errorClass: "cancelled", message });
  return {
    syncRunId,
    outcome: "CANCELLED",
    counts: ZERO_COUNTS,
    message,
    guardFired: false,
    suppressed: [],
    errorClass: "cancelled",
  };
}

/**
 * The snapshot with lists of its own: the engine empties them as it writes, so a guest is held
 * only until its chunk is written (the read's own object, unreferenced once read, is collected).
 */
function consumable(snapshot: SourceSnapshot): SourceSnapshot {
  return {
    ...snapshot,
    lists: snapshot.lists.map((list) =>
      list.status === "ok" ? { ...list, vms: [...list.vms] } : list,
    ),
  };
}

async function reconcile(
  options: RunSyncOptions,
  ctx: WriteContext,
  snapshot: SourceSnapshot,
  emit: (event: SyncProgressEvent) => void,
  clock: () => Date,
): Promise<SyncResult> {
  const { prisma, connectionId, dryRun = false } = options;
  for (const list of snapshot.lists) {
    emit(
      list.status === "ok"
        ? { type: "list", key: list.key, status: "ok", count: list.vms.length }
        : { type: "list", key: list.key, status: "skipped", reason: list.reason },
    );
  }
  emit({ type: "phase", phase: "reconciling" });
  const rows = await prisma.virtualMachine.findMany({
    where: { connectionId },
    select: {
      id: true,
      externalId: true,
      listKey: true,
      name: true,
      fingerprint: true,
      confirmation: true,
      removedAt: true,
    },
  });
  const stored = rows.map(({ removedAt, ...row }) => ({ ...row, isRemoved: removedAt !== null }));
  // Removals need only the ids seen, so they are decided before any guest is planned or written.
  const statuses = listStatuses(snapshot.lists);
  const seenIds = seenIdsOf(snapshot.lists, statuses);
  const removal = planRemovals(stored, snapshot.lists, seenIds);
  const suppressed = [...removal.suppressed];
  if (removal.guard.message) {
    emit({
      type: "guard",
      known: removal.guard.known,
      present: removal.guard.present,
      message: removal.guard.message,
      messageText: removal.guard.text,
    });
  }

  let rowsWritten = 0;
  let preview: SyncPreview | undefined;
  let guardFired = !removal.guard.allowsRemoval;
  let tally: WriteTally;
  if (dryRun) {
    const plan = planReconcile(stored, snapshot.lists);
    tally = tallyOfPlan(plan);
    // Stored rows are loaded a chunk at a time and only their diffs kept: a preview of thousands
    // of changed guests never holds all their rows and children at once.
    const changes = new Map<PlannedWrite, JsonObject>();
    const changed = plan.writes.filter((w) => w.stored && w.isContentChanged);
    const rules = compiledAddressRules(
      (await readEffectiveAddressRules(prisma, connectionId)).rules,
    );
    for (const part of chunk(changed, VM_CHUNK_SIZE)) {
      const previous = await loadPrevious(
        prisma,
        part.flatMap((w) => (w.stored ? [w.stored.id] : [])),
      );
      for (const write of part) {
        const before = write.stored ? previous.get(write.stored.id) : undefined;
        const diff = diffWrite(withResolvedAddresses(write, before, rules, ctx).write, before);
        changes.set(write, { ...diff.moved, ...diff.changed });
      }
    }
    preview = buildPreview(plan, (write) => changes.get(write) ?? {});
  } else {
    // TRAP: issue 20 — each committed step stores the run's counts in its own transaction, so a run
    // killed mid-write is closed with what landed (a killed run's counts once read "added 0").
    tally = { seen: seenIds.size, unchanged: 0, writes: {} };
    const recordCommitted = (removed: number) => (db: RawSql, written: number) =>
      recordRunCounts(db, ctx.syncRunId, countsOf(tally, removed, rowsWritten + written));
    rowsWritten += await reconcileEntities(prisma, ctx, snapshot, suppressed, recordCommitted(0));
    guardFired ||= suppressed.some((item) => item.kind === "guard" && item.subject !== "guests");
    const onChunk = async (part: PlannedWrite[]) => {
      tallyWrites(tally, part);
      // TRAP: docs/behaviour.md §3 step 5 — upserts commit before any removal, so a moved guest is never removed.
      rowsWritten += await writeVmChunk(prisma, ctx, part, recordCommitted(0));
      emit({ type: "counts", counts: countsOf(tally, 0, rowsWritten) });
    };
    await writeListByList(snapshot, statuses, stored, tally, onChunk);
    if (removal.removals.length || removal.confirmations.length) {
      rowsWritten += await writeRemovalPlan(prisma, ctx, removal, recordCommitted);
    }
    const rewritten = Object.entries(tally.writes)
      .filter(([change]) => change !== "reconfirmed")
      .reduce((n, [, count]) => n + count, 0);
    await refreshStatistics(prisma, rewritten + removal.removals.length);
  }

  emit({ type: "phase", phase: "recording" });
  const counts = countsOf(tally, removal.removals.length, rowsWritten);
  emit({ type: "counts", counts });
  const outcome: SyncRunOutcome = suppressed.length || guardFired ? "PARTIAL" : "SUCCESS";
  const messageTexts = describe(counts, suppressed, dryRun);
  const message = messageTexts.map(englishText).join(" ");
  const finishedAt = clock();
  const feed = dryRun
    ? []
    : runOutcomeEvents(ctx, outcome, { message, suppressed, at: finishedAt });
  await commitWithFeed(prisma, ctx, feed, async (tx) => {
    await tx.syncRun.update({
      where: { id: ctx.syncRunId },
      data: {
        outcome,
        finishedAt,
        counts: toJson(counts),
        guardFired,
        suppressed: toJson(suppressed),
        preview: preview ? toJson(preview) : undefined,
        message,
        messageTexts: toJson(messageTexts),
      },
    });
    // A preview changes nothing, the connection's health included.
    if (!dryRun) {
      await tx.connection.update({
        where: { id: connectionId },
        data: {
          lastSyncAt: finishedAt,
          lastSyncOutcome: outcome,
          lastSyncMessage: message,
          lastSyncMessageTexts: toJson(messageTexts),
          lastSyncCounts: toJson(counts),
          // The run's start: every row it confirmed was seen at or after this instant.
          lastSuccessAt: ctx.now,
          consecutiveFailures: 0,
          lastErrorClass: null,
        },
      });
      // TRAP: docs/behaviour.md §9.50 — the sample commits with the run's end: a run killed before
      // it leaves no sample of a half-written inventory.
      await recordInventorySample(tx, { connectionId, syncRunId: ctx.syncRunId, at: finishedAt });
    }
  });
  emit({ type: "finished", outcome, counts, message, messageTexts });
  return { syncRunId: ctx.syncRunId, outcome, counts, message, guardFired, suppressed, preview };
}

/**
 * Plans and writes the guests of the lists that came back, a slice at a time, in the order the
 * lists were read (the first list a guest appears in wins). Each slice is taken out of its list
 * before it is planned, so a written guest is no longer held; writes are handed to `write` in
 * chunks of up to VM_CHUNK_SIZE, the last one when every list is done.
 */
async function writeListByList(
  snapshot: SourceSnapshot,
  statuses: ReturnType<typeof listStatuses>,
  stored: StoredVmState[],
  tally: WriteTally,
  write: (part: PlannedWrite[]) => Promise<void>,
): Promise<void> {
  const storedById = new Map(stored.map((row) => [row.externalId, row]));
  const claimed = new Set<string>();
  let pending: PlannedWrite[] = [];
  for (const list of seenLists(snapshot.lists, statuses)) {
    while (list.vms.length) {
      const seen = collectSeen({ ...list, vms: list.vms.splice(0, VM_CHUNK_SIZE) }, claimed);
      for (const item of seen) {
        const planned = classify(item, storedById.get(item.vm.externalId));
        // A guest rewritten only to confirm it again is unchanged, as planReconcile counts it.
        if (!planned || planned.change === "reconfirmed") tally.unchanged += 1;
        if (planned) pending.push(planned);
        if (pending.length === VM_CHUNK_SIZE) {
          await write(pending);
          pending = [];
        }
      }
    }
  }
  if (pending.length) await write(pending);
}

/** Tombstones and confirmation changes, in one transaction after every guest seen is written. */
async function writeRemovalPlan(
  prisma: PrismaClient,
  ctx: WriteContext,
  removal: RemovalPlan,
  recordCommitted: (removed: number) => (db: RawSql, written: number) => Promise<void>,
): Promise<number> {
  const record = recordCommitted(removal.removals.length);
  const feed: NewInventoryEvent[] = [];
  const written = await rawTransaction(prisma, async (sql) => {
    const written = await writeRemovals(sql, ctx, removal.removals, removal.confirmations, feed);
    await record(sql, written);
    await appendInventoryEvents(sql, feed);
    return written;
  });
  if (feed.length) ctx.onFeedAdvanced?.();
  return written;
}

/** Nodes and edge gateways, in one transaction before the guests. */
async function reconcileEntities(
  prisma: PrismaClient,
  ctx: WriteContext,
  snapshot: SourceSnapshot,
  suppressed: SuppressedItem[],
  alsoCommit: (db: RawSql, written: number) => Promise<void>,
): Promise<number> {
  const select = { id: true, externalId: true, name: true, fingerprint: true, removedAt: true };
  const where = { connectionId: ctx.connectionId };
  const nodes = snapshot.nodes
    ? planKeyed(
        await prisma.hypervisorNode.findMany({ where, select }),
        snapshot.nodes,
        true,
        "nodes",
      )
    : undefined;
  const gateways = snapshot.edgeGateways
    ? planKeyed(
        await prisma.edgeGateway.findMany({ where, select }),
        snapshot.edgeGateways.items,
        snapshot.edgeGateways.isComplete,
        "edge gateways",
      )
    : undefined;
  if (snapshot.edgeGateways && !snapshot.edgeGateways.isComplete) {
    suppressed.push({
      kind: "edge_gateways",
      reason: snapshot.edgeGateways.reason ?? "the list was not read completely",
    });
  }
  for (const [subject, plan] of [
    ["nodes", nodes],
    ["edge gateways", gateways],
  ] as const) {
    if (plan?.suppressedRemovals.length) {
      suppressed.push({
        kind: "guard",
        subject,
        known: plan.guard.known,
        present: plan.guard.present,
        message: plan.guard.message ?? "",
        total: plan.suppressedRemovals.length,
        items: plan.suppressedRemovals
          .slice(0, SUPPRESSED_NAMES_CAP)
          .map((row) => ({ externalId: row.externalId, name: row.name })),
      });
    }
  }
  const hasWork = [nodes, gateways].some((p) => p && (p.writes.length || p.removals.length));
  if (!hasWork) return 0;
  const feed = gateways ? edgeGatewayEvents(ctx, gateways) : [];
  const written = await rawTransaction(prisma, async (sql) => {
    let written = 0;
    if (nodes) written += await writeKeyed(sql, ctx, NODE_TABLE, nodes);
    if (gateways) written += await writeKeyed(sql, ctx, EDGE_GATEWAY_TABLE, gateways);
    await alsoCommit(sql, written);
    await appendInventoryEvents(sql, feed);
    return written;
  });
  if (feed.length) ctx.onFeedAdvanced?.();
  return written;
}
