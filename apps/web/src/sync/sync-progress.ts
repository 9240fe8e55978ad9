// Live sync progress per connection, folded from syncProgress events. A sync that skipped lists
// or fired the removal guard never shows as a plain success (docs/behaviour.md §9).
import { type ServerMessage, serverMessagesText } from "../i18n/server-text.ts";
import type { Tone } from "../ui/tone.ts";
import { outcomeTone } from "../ui/tone.ts";

/** One syncProgress event as the subscription delivers it. */
export interface ProgressEvent {
  at: string;
  connectionId: string;
  syncRunId: string | null;
  type: string;
  phase: string | null;
  listKey: string | null;
  listStatus: string | null;
  count: number | null;
  reason: string | null;
  reasonText: ServerMessage | null;
  counts: {
    added: number;
    changed: number;
    removed: number;
    restored: number;
    unchanged: number;
    seen: number;
  } | null;
  outcome: string | null;
  message: string | null;
  /** The message as codes and parameters, one per sentence, where the server has them. */
  messageTexts: readonly ServerMessage[] | null;
  errorClass: string | null;
  guardKnown: number | null;
  guardPresent: number | null;
}

/** A list (a node's qemu list, a Director VM query) read or skipped during a sync. */
export interface ListProgress {
  key: string;
  status: string;
  count: number | null;
  reason: string | null;
  /** The reason as a code and parameters, where the server has one. */
  reasonText: ServerMessage | null;
}

/** Why the server handed the last run back instead of starting a sync (its manual-sync cool-down). */
export interface ManualSyncCooldown {
  secondsSinceLastRun: number;
  nextManualSyncAt: string;
}

/** Where one connection's sync stands; "recent" is a request answered under the cool-down. */
export interface ConnectionProgress {
  connectionId: string;
  status: "starting" | "running" | "finished" | "failed" | "recent";
  phase: string | null;
  lists: ListProgress[];
  counts: ProgressEvent["counts"];
  guard: {
    known: number | null;
    present: number | null;
    message: string | null;
    texts: readonly ServerMessage[] | null;
  } | null;
  outcome: string | null;
  message: string | null;
  messageTexts: readonly ServerMessage[] | null;
  errorClass: string | null;
  cooldown: ManualSyncCooldown | null;
}

/** Progress of every connection that synced while the page was open. */
export type ProgressState = Record<string, ConnectionProgress>;

function fresh(connectionId: string): ConnectionProgress {
  return {
    connectionId,
    status: "starting",
    phase: null,
    lists: [],
    counts: null,
    guard: null,
    outcome: null,
    message: null,
    messageTexts: null,
    errorClass: null,
    cooldown: null,
  };
}

/** Marks connections whose sync was just requested, before their first event arrives. */
export function markStarting(
  state: ProgressState,
  connectionIds: readonly string[],
): ProgressState {
  const next = { ...state };
  for (const id of connectionIds) next[id] = fresh(id);
  return next;
}

/**
 * Marks a connection whose sync request got its last run back (synced moments ago): no progress
 * events follow, so without this it would show "Starting" for good.
 */
export function markRecent(
  state: ProgressState,
  connectionId: string,
  run: { outcome: string; cooldown: ManualSyncCooldown },
): ProgressState {
  return {
    ...state,
    [connectionId]: {
      ...fresh(connectionId),
      status: "recent",
      outcome: run.outcome,
      cooldown: run.cooldown,
    },
  };
}

/** The guard's sentence in the viewer's language, or null when the guard did not fire. */
export function guardNote(progress: ConnectionProgress): string | null {
  const { guard } = progress;
  if (!guard?.message) return null;
  return serverMessagesText(guard.texts, guard.message);
}

/** Folds one event into the state. */
export function applyProgress(state: ProgressState, event: ProgressEvent): ProgressState {
  const current = state[event.connectionId] ?? fresh(event.connectionId);
  let next: ConnectionProgress;
  switch (event.type) {
    case "started":
      next = { ...fresh(event.connectionId), status: "running" };
      break;
    case "phase":
      next = { ...current, status: "running", phase: event.phase };
      break;
    case "list": {
      const list = {
        key: event.listKey ?? "",
        status: event.listStatus ?? "",
        count: event.count,
        reason: event.reason,
        reasonText: event.reasonText,
      };
      // The server reports each list once per run (docs/behaviour.md §8.4).
      next = { ...current, lists: [...current.lists, list] };
      break;
    }
    case "counts":
      next = { ...current, counts: event.counts };
      break;
    case "guard":
      next = {
        ...current,
        guard: {
          known: event.guardKnown,
          present: event.guardPresent,
          message: event.message,
          texts: event.messageTexts,
        },
      };
      break;
    case "finished":
      next = {
        ...current,
        status: "finished",
        outcome: event.outcome,
        counts: event.counts ?? current.counts,
        message: event.message,
        messageTexts: event.messageTexts,
      };
      break;
    case "failed":
      next = {
        ...current,
        status: "failed",
        outcome: "FAILED",
        message: event.message,
        messageTexts: event.messageTexts,
        errorClass: event.errorClass,
      };
      break;
    default:
      return state;
  }
  return { ...state, [event.connectionId]: next };
}

/** The colour of a connection's progress: only a clean success is ok. */
export function progressTone(progress: ConnectionProgress): Tone {
  if (progress.status === "failed") return "danger";
  if (progress.status !== "finished") return "info";
  const tone = outcomeTone(progress.outcome);
  const hasSkipped = progress.lists.some((l) => l.status !== "ok");
  if (tone === "ok" && (progress.guard || hasSkipped)) return "warn";
  return tone;
}

/**
 * The server's closing message to show under a finished sync, or null. Its message repeats the
 * counts (and the skipped lists and guard) the panel already shows, so it is shown only for a run
 * that reported no counts.
 */
export function finishedNote(progress: ConnectionProgress): string | null {
  if (progress.status !== "finished" || progress.counts || !progress.message) return null;
  return serverMessagesText(progress.messageTexts, progress.message);
}

/** True while any sync is starting or running (Sync is disabled meanwhile). */
export function isAnyRunning(state: ProgressState): boolean {
  return Object.values(state).some((p) => p.status === "running" || p.status === "starting");
}

/** True once every tracked sync has ended. */
export function isSettled(state: ProgressState): boolean {
  const entries = Object.values(state);
  return (
    entries.length > 0 &&
    entries.every((p) => p.status === "finished" || p.status === "failed" || p.status === "recent")
  );
}
