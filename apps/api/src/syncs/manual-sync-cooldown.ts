// The manual-sync cool-down: a manual sync of a connection whose last run started moments ago gets
// that run back instead of reading the whole hypervisor again. Judged from sync_runs, so every
// replica sees the same last run; scheduled syncs never come through here.
import type { PrismaClient, SyncRun } from "@hyperlens/db";
import { englishText, type ServerText, serverText } from "@hyperlens/shared";

/** Why a manual sync request got the connection's last run back instead of a new one. */
export interface ManualSyncCooldown {
  /** Whole seconds since the returned run started. */
  secondsSinceLastRun: number;
  /** From when a manual sync of the connection reads the hypervisor again. */
  nextManualSyncAt: Date;
  /** The same in a sentence, for API clients that show it as it is. */
  message: string;
  /** `message` as a code (docs/behaviour.md §11.4). */
  text: ServerText;
}

/** A run handed back under the cool-down, with the notice that says so. */
export interface RunWithinCooldown {
  run: SyncRun;
  cooldown: ManualSyncCooldown;
}

/** What {@link runWithinManualSyncCooldown} judges by. */
export interface CooldownCheck {
  /** Dry runs and real syncs cool down apart: one never answers for the other. */
  isDryRun: boolean;
  /** The configured cool-down; 0 turns it off. */
  cooldownMs: number;
  /** The clock runs are stamped with. */
  now: Date;
}

/**
 * The connection's last run when a manual request comes within the cool-down after that run
 * STARTED; undefined when the request should go on to start a sync, or to join the one running.
 */
export async function runWithinManualSyncCooldown(
  prisma: PrismaClient,
  connectionId: string,
  check: CooldownCheck,
): Promise<RunWithinCooldown | undefined> {
  if (check.cooldownMs <= 0) return undefined;
  const run = await prisma.syncRun.findFirst({
    // A light poll's run is not a sync anyone asked for (docs/behaviour.md §8.7).
    where: { connectionId, isDryRun: check.isDryRun, trigger: { not: "POLL" } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
  });
  // A running sync is joined as before (the lease decides whether it is still alive).
  if (!run || run.outcome === "RUNNING") return undefined;
  const nextManualSyncAt = new Date(run.startedAt.getTime() + check.cooldownMs);
  if (check.now >= nextManualSyncAt) return undefined;
  const secondsSinceLastRun = Math.max(
    0,
    Math.floor((check.now.getTime() - run.startedAt.getTime()) / 1000),
  );
  const text = serverText("manualSyncCooldown", {
    seconds: secondsSinceLastRun,
    at: nextManualSyncAt.toISOString(),
  });
  return {
    run,
    cooldown: { secondsSinceLastRun, nextManualSyncAt, message: englishText(text), text },
  };
}
