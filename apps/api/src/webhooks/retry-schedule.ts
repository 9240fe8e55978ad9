// When a failed delivery is tried again, when its event is given up, and when the endpoint is
// disabled (docs/behaviour.md §14.24, §14.25).

/** Delivery timings; tests shorten them. */
export interface RetrySchedule {
  /** The first retry's backoff ceiling; it doubles per attempt. */
  baseMs: number;
  /** The most any backoff ceiling grows to. */
  capMs: number;
  /** How long one event is retried before it is given up and the cursor moves past it. */
  giveUpAfterMs: number;
  /** How long an endpoint may fail without a single success before it is disabled. */
  disableAfterMs: number;
}

const HOUR = 3_600_000;

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  baseMs: 10_000,
  capMs: HOUR,
  giveUpAfterMs: 24 * HOUR,
  disableAfterMs: 3 * 24 * HOUR,
};

/**
 * The wait before attempt `failedAttempts + 1`: "full jitter", a uniform draw between 0 and the
 * exponential ceiling, so endpoints that failed together do not retry together.
 */
export function backoffMs(
  schedule: RetrySchedule,
  failedAttempts: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(schedule.capMs, schedule.baseMs * 2 ** Math.min(failedAttempts - 1, 40));
  return Math.floor(random() * ceiling);
}
