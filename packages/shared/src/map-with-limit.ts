import { createSemaphore } from "./semaphore.ts";

/**
 * Maps items with at most `limit` calls of `fn` in flight, started in input order and answered in
 * input order; rejects with the first failure. The source adapters use one such pool over every
 * guest so the request pipeline stays full.
 */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const slots = createSemaphore(limit);
  return await Promise.all(
    items.map(async (item) => {
      const release = await slots.acquire();
      try {
        return await fn(item);
      } finally {
        release();
      }
    }),
  );
}

/** The message of a thrown value, whatever was thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
