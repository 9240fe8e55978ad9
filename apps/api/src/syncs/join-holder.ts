// Joining a sync another holder of the lease is running: report its run as this request's, poll
// the lease until the run ends, and give up (to try for the lease again) when the holder lets go
// without finishing or is known dead. The loop around it is in coordinator.ts.
import { setTimeout as sleep } from "node:timers/promises";
import type { SyncCounts } from "@hyperlens/shared";
import { type SyncResult, ZERO_COUNTS } from "@hyperlens/sync";
import type { AppServices } from "../context.ts";
import { currentLease, INTERRUPTED_ERROR_CLASS, type LeaseHolder } from "./lease.ts";
import { isProcessKnownDead } from "./process-identity.ts";

/**
 * Waits for another holder's run and returns its result; undefined when the holder stopped holding
 * the lease without finishing it, or is known dead, so the caller tries to take the lease itself.
 */
export async function joinHolder(
  services: AppServices,
  joinPollMs: number,
  id: string,
  lease: LeaseHolder | undefined,
  onRunId: (runId: string) => void,
): Promise<SyncResult | undefined> {
  const { prisma } = services;
  // A run closed as interrupted was not finished by its holder, who died: not the sync asked for.
  const finished = async (runId: string | null) => {
    const run = runId ? await prisma.syncRun.findUnique({ where: { id: runId } }) : null;
    return run && run.outcome !== "RUNNING" && run.errorClass !== INTERRUPTED_ERROR_CLASS
      ? resultOfRun(run)
      : undefined;
  };
  let current = lease;
  // Released between our attempt and our look: wait a moment before trying again.
  if (!current) await sleep(joinPollMs);
  // TRAP: docs/behaviour.md §8 — a holder known dead is doing no sync: its run is never reported as this one.
  while (current && !isProcessKnownDead(current.holderProcess)) {
    if (current.syncRunId) onRunId(current.syncRunId);
    const result = await finished(current.syncRunId);
    if (result) return result;
    await sleep(joinPollMs);
    const next = await currentLease(prisma, id);
    // Released: the run has its outcome unless its holder died (then the next holder closes it).
    if (!next) return finished(current.syncRunId);
    if (next.holder !== current.holder) return undefined;
    current = next;
  }
  return undefined;
}

/** A finished run as the result of the sync that was asked for. */
function resultOfRun(run: {
  id: string;
  outcome: string;
  counts: unknown;
  message: string | null;
  guardFired: boolean;
  errorClass: string | null;
}): SyncResult {
  const outcome = run.outcome === "RUNNING" ? "FAILED" : (run.outcome as SyncResult["outcome"]);
  return {
    syncRunId: run.id,
    outcome,
    counts: { ...ZERO_COUNTS, ...(run.counts as Partial<SyncCounts>) },
    message: run.message ?? "",
    guardFired: run.guardFired,
    suppressed: [],
    ...(run.errorClass ? { errorClass: run.errorClass } : {}),
  };
}
