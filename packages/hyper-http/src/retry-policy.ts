/** How many times, and how patiently, a transient failure is retried. */
export interface RetryOptions {
  /** Total attempts including the first (default 3; 1 disables retries). */
  attempts?: number;
  /** Backoff base in ms (default 300); attempt n waits a random time up to base·2^(n-1). */
  baseDelayMs?: number;
  /** Upper bound of one wait in ms (default 5000). */
  maxDelayMs?: number;
}

/** {@link RetryOptions} with every field filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** Fills in the defaults of {@link RetryOptions}. */
export function resolveRetryPolicy(options: RetryOptions | undefined): RetryPolicy {
  return {
    attempts: Math.max(1, Math.floor(options?.attempts ?? 3)),
    baseDelayMs: Math.max(0, options?.baseDelayMs ?? 300),
    maxDelayMs: Math.max(0, options?.maxDelayMs ?? 5000),
  };
}

/**
 * "Full jitter" exponential backoff: a uniform wait in [0, min(max, base·2^(n-1))], so many
 * connections retrying after one outage do not hammer the server in lock-step.
 */
export function backoffDelayMs(
  policy: RetryPolicy,
  failedAttempt: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempt - 1));
  return Math.floor(random() * ceiling);
}
