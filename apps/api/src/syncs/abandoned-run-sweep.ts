// Every server replica closes, once per lease life, the runs a stopped process left RUNNING. The
// start-up recovery leaves a run whose lease is still live (it may be another replica's sync); when
// that lease then expires unrenewed, its holder is dead, and without this sweep the run would show as
// running until the next sync of its connection — for an inactive connection, for ever.
import type { AppServices } from "../context.ts";
import { recoverInterruptedSyncs } from "./lease.ts";

/** A running sweep. */
export interface AbandonedRunSweep {
  /** One pass now (tests); resolves with the number of runs it closed. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/** Starts sweeping every `intervalMs` (the lease life: a dead holder's run closes within two). */
export function startAbandonedRunSweep(
  services: Pick<AppServices, "prisma" | "logger">,
  intervalMs: number,
): AbandonedRunSweep {
  let running: Promise<number> | undefined;
  const sweep = () => {
    running ??= recoverInterruptedSyncs(services.prisma, false)
      .then((closed) => {
        if (closed)
          services.logger.warn({ runs: closed }, "Closed syncs a stopped server left running");
        return closed;
      })
      .catch((error: unknown) => {
        services.logger.warn({ err: error }, "Could not close the runs of stopped servers");
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref();
  return {
    sweep,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
