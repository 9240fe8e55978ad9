import { createSemaphore } from "./semaphore.ts";

/**
 * Maps items with at most `limit` calls of `fn` in flight, started in input order and answered in
 * input order; rejects with the first failure and starts nothing after it. The source adapters
 * use one such pool over every guest so the request pipeline stays full.
 */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const slots = createSemaphore(limit);
  const results: Promise<R>[] = [];
  let failure: { error: unknown } | undefined;
  // Each item waits for its permit before the next one is even created, so the queue never holds
  // more than one caller whatever the number of items (50,000 guests cost what 16 do).
  for (const item of items) {
    const release = await slots.acquire();
    if (failure) {
      release();
      throw failure.error;
    }
    const result = fn(item);
    result.then(release, (error: unknown) => {
      release();
      failure ??= { error };
    });
    results.push(result);
  }
  return await Promise.all(results);
}

/** The message of a thrown value, whatever was thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
