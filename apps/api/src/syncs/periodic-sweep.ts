// A clean-up pass repeated on a timer, never two at once, whose failure is logged, not thrown.
import type { AppServices } from "../context.ts";

/** A running sweep. */
export interface PeriodicSweep {
  /** One pass now (tests); resolves with what the pass counted (rows closed, deleted…). */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/** Runs `pass` every `intervalMs`; `failure` is the log line when a pass throws. */
export function startPeriodicSweep(
  services: Pick<AppServices, "logger">,
  intervalMs: number,
  pass: () => Promise<number>,
  failure: string,
): PeriodicSweep {
  let running: Promise<number> | undefined;
  const sweep = () => {
    running ??= pass()
      .catch((error: unknown) => {
        services.logger.warn({ err: error }, failure);
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
