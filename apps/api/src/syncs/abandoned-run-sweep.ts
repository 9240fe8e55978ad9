// Every server replica closes, once per lease life, the runs a stopped process left RUNNING. The
// start-up recovery leaves a run whose lease is still live (it may be another replica's sync); when
// that lease then expires unrenewed, its holder is dead, and without this sweep the run would show as
// running until the next sync of its connection — for an inactive connection, for ever.
import type { AppServices } from "../context.ts";
import { recoverInterruptedSyncs } from "./lease.ts";
import { type PeriodicSweep, startPeriodicSweep } from "./periodic-sweep.ts";
import { announceFeedAdvanced } from "./progress-events.ts";

/** A running sweep. */
export type AbandonedRunSweep = PeriodicSweep;

/** Starts sweeping every `intervalMs` (the lease life: a dead holder's run closes within two). */
export function startAbandonedRunSweep(
  services: Pick<AppServices, "prisma" | "logger" | "events">,
  intervalMs: number,
): AbandonedRunSweep {
  return startPeriodicSweep(
    services,
    intervalMs,
    async () => {
      const closed = await recoverInterruptedSyncs(
        services.prisma,
        false,
        announceFeedAdvanced(services.events),
      );
      if (closed)
        services.logger.warn({ runs: closed }, "Closed syncs a stopped server left running");
      return closed;
    },
    "Could not close the runs of stopped servers",
  );
}
