// The light poll (docs/behaviour.md §8.7, §8.8): between full syncs, read only the lists, read the
// details of the guests that changed, and write them through the same writes as a full sync. A
// poll that finds nothing to write writes nothing: no row, no event, no sync_runs row.
import { type PrismaClient, rawTransaction } from "@hyperlens/db";
import type {
  ConnectionKind,
  GuestListing,
  ListedGuest,
  ReadGuest,
  SyncCounts,
  SyncProgressEvent,
} from "@hyperlens/shared";
import { englishText, errorMessage, type ServerText, serverText } from "@hyperlens/shared";
import { runOutcomeEvents } from "./feed-events.ts";
import { fingerprintVm } from "./fingerprint.ts";
import { appendInventoryEvents, type NewInventoryEvent } from "./inventory-events.ts";
import { recordInventorySample } from "./inventory-samples.ts";
import { readLightPollCandidates } from "./light-poll-candidates.ts";
import { type LightPollPlan, planLightPoll, type StoredListedState } from "./light-poll-plan.ts";
import { normalizeVm } from "./normalize.ts";
import { classify, type PlannedWrite, SUPPRESSED_NAMES_CAP, type SuppressedItem } from "./plan.ts";
import { refreshStatistics } from "./refresh-statistics.ts";
import { recordRunCounts } from "./run-counts.ts";
import { commitWithFeed } from "./run-sync.ts";
import { chunk } from "./sql.ts";
import { writeContextOf } from "./write-context.ts";
import { writeRemovals } from "./write-removals.ts";
import { VM_CHUNK_SIZE, writeVmChunk } from "./write-vms.ts";

/** Everything one light poll of one connection needs. */
export interface RunLightPollOptions {
  prisma: PrismaClient;
  connectionId: string;
  source: ConnectionKind;
  correlationId?: string;
  /** Reads the lists; a rejection is a failed listing, which writes nothing. */
  list: (signal?: AbortSignal) => Promise<GuestListing>;
  /** Reads the details of these guests as the full sync would; a guest left out is not written. */
  readGuests: (guests: ListedGuest[], signal?: AbortSignal) => Promise<ReadGuest[]>;
  signal?: AbortSignal;
  emit?: (event: SyncProgressEvent) => void;
  onFeedAdvanced?: () => void;
  now?: () => Date;
}

/** How a light poll ended. Only "written" recorded a sync_runs row. */
export interface LightPollResult {
  outcome: "unchanged" | "written" | "failed" | "cancelled";
  syncRunId?: string;
  /** Guests the listing showed. */
  listed: number;
  /** Guests whose details were read. */
  read: number;
  counts: SyncCounts;
  /** Removals the guard held back (docs/behaviour.md §3.5). */
  heldBack: number;
  message: string;
}

function countsOf(listed: number, writes: PlannedWrite[], removed: number, rowsWritten: number) {
  const count = (change: string) => writes.filter((w) => w.change === change).length;
  const rewritten = writes.filter((w) => w.change !== "reconfirmed").length;
  return {
    seen: listed,
    added: count("added"),
    changed: count("changed"),
    restored: count("restored"),
    removed,
    unchanged: listed - rewritten,
    rowsWritten,
  };
}

function guardItem(plan: LightPollPlan): SuppressedItem[] {
  if (!plan.guard || plan.guard.allowsRemoval) return [];
  return [
    {
      kind: "guard",
      subject: "guests",
      known: plan.guard.known,
      present: plan.guard.present,
      message: plan.guard.message ?? "",
      total: plan.heldBack,
      items: plan.held
        .slice(0, SUPPRESSED_NAMES_CAP)
        .map((row) => ({ externalId: row.externalId, name: row.name })),
    },
  ];
}

/** What a written poll did, one text per sentence (docs/behaviour.md §11.4). */
function describePoll(
  counts: SyncCounts,
  read: number,
  guard: ServerText | undefined,
): ServerText[] {
  const { seen: listed, added, changed, restored, removed } = counts;
  const summary = serverText("lightPollSummary", {
    listed,
    read,
    added,
    changed,
    restored,
    removed,
  });
  return guard ? [summary, guard] : [summary];
}

/** Runs one light poll. Never throws for a failed listing or read: nothing is written then. */
export async function runLightPoll(options: RunLightPollOptions): Promise<LightPollResult> {
  const { prisma, connectionId, signal } = options;
  const clock = options.now ?? (() => new Date());
  const emit = (event: SyncProgressEvent) => {
    try {
      options.emit?.(event);
    } catch {
      // A listener failing must not fail the poll.
    }
  };
  const startedAt = clock();
  const nothing = (outcome: LightPollResult["outcome"], message: string, listed = 0) => ({
    outcome,
    listed,
    read: 0,
    counts: countsOf(listed, [], 0, 0),
    heldBack: 0,
    message,
  });

  let listing: GuestListing;
  let read: ReadGuest[] = [];
  let plan: LightPollPlan;
  let stored: StoredListedState[];
  try {
    listing = await options.list(signal);
    signal?.throwIfAborted();
    const candidates = await readLightPollCandidates(prisma, connectionId, listing);
    stored = candidates.stored;
    plan = planLightPoll(stored, candidates.listing, candidates.known);
    if (plan.toRead.length)
      read = await options.readGuests(
        plan.toRead.map((t) => t.guest),
        signal,
      );
    // TRAP: docs/behaviour.md §8 — a poll stopped during its reads writes nothing.
    signal?.throwIfAborted();
  } catch (error) {
    if (signal?.aborted)
      return nothing("cancelled", "The light poll was stopped; nothing was changed.");
    // TRAP: docs/behaviour.md §8.8 — a list call that failed removes nothing (and writes nothing).
    return nothing("failed", `Light poll failed: ${errorMessage(error)}. Nothing was changed.`);
  }

  const storedById = new Map(stored.map((row) => [row.externalId, row]));
  const writes: PlannedWrite[] = [];
  for (const { listKey, vm: raw } of read) {
    const vm = normalizeVm(raw);
    const write = classify(
      { vm, listKey, fingerprint: fingerprintVm(vm, listKey) },
      storedById.get(vm.externalId),
    );
    if (write) writes.push(write);
  }
  const listed = listing.guests.length;
  if (writes.length === 0 && plan.removals.length === 0) {
    return {
      ...nothing("unchanged", "Nothing changed.", listed),
      read: read.length,
      heldBack: plan.heldBack,
    };
  }

  const connection = await prisma.connection.findUniqueOrThrow({
    where: { id: connectionId },
    select: { lastSuccessAt: true },
  });
  const run = await prisma.syncRun.create({
    data: {
      connectionId,
      trigger: "POLL",
      correlationId: options.correlationId ?? crypto.randomUUID(),
      startedAt,
    },
  });
  const ctx = writeContextOf(
    { id: run.id, connectionId, startedAt },
    options.source,
    connection.lastSuccessAt,
    options.onFeedAdvanced,
  );
  emit({ type: "started", connectionId, syncRunId: run.id, dryRun: false });
  emit({ type: "phase", phase: "reconciling" });
  let rowsWritten = 0;
  let committed = 0;
  for (const part of chunk(writes, VM_CHUNK_SIZE)) {
    committed += part.length;
    const counts = (written: number) =>
      countsOf(listed, writes.slice(0, committed), 0, rowsWritten + written);
    // TRAP: docs/behaviour.md §8.8 — upserts commit before any removal: a moved guest is moved, never removed.
    rowsWritten += await writeVmChunk(prisma, ctx, part, (db, written) =>
      recordRunCounts(db, run.id, counts(written)),
    );
    emit({ type: "counts", counts: countsOf(listed, writes.slice(0, committed), 0, rowsWritten) });
  }
  if (plan.removals.length) {
    const feed: NewInventoryEvent[] = [];
    const removals = plan.removals.map((row) => ({
      stored: row,
      reason: `not in the guest list (light poll)`,
    }));
    rowsWritten += await rawTransaction(prisma, async (sql) => {
      const written = await writeRemovals(sql, ctx, removals, [], feed);
      await recordRunCounts(
        sql,
        run.id,
        countsOf(listed, writes, removals.length, rowsWritten + written),
      );
      await appendInventoryEvents(sql, feed);
      return written;
    });
    if (feed.length) ctx.onFeedAdvanced?.();
  }
  await refreshStatistics(prisma, writes.length + plan.removals.length);

  const counts = countsOf(listed, writes, plan.removals.length, rowsWritten);
  const suppressed = plan.heldBack ? guardItem(plan) : [];
  const outcome = suppressed.length ? "PARTIAL" : "SUCCESS";
  const messageTexts = describePoll(
    counts,
    read.length,
    suppressed.length ? plan.guard?.text : undefined,
  );
  const message = messageTexts.map(englishText).join(" ");
  const finishedAt = clock();
  emit({ type: "phase", phase: "recording" });
  await commitWithFeed(
    prisma,
    ctx,
    runOutcomeEvents(ctx, outcome, { message, suppressed, at: finishedAt }),
    async (tx) => {
      // The connection's own sync health and schedule stay the full sync's (docs/behaviour.md §8.7).
      await tx.syncRun.update({
        where: { id: run.id },
        data: {
          outcome,
          finishedAt,
          counts,
          guardFired: suppressed.length > 0,
          suppressed: JSON.parse(JSON.stringify(suppressed)),
          message,
          messageTexts: JSON.parse(JSON.stringify(messageTexts)),
        },
      });
      await recordInventorySample(tx, { connectionId, syncRunId: run.id, at: finishedAt });
    },
  );
  emit({ type: "counts", counts });
  emit({ type: "finished", outcome, counts, message, messageTexts });
  return {
    outcome: "written",
    syncRunId: run.id,
    listed,
    read: read.length,
    counts,
    heldBack: plan.heldBack,
    message,
  };
}
