// Wakes the webhook dispatcher when a sync reports progress: a sync is what appends to the change
// feed, so new events are delivered at once rather than at the next poll. Progress reaches every
// replica through Redis when it is configured; the poll covers the rest.
import type { SyncEvents } from "../syncs/progress-events.ts";
import type { WebhookDispatcher } from "./dispatcher.ts";

export function wakeOnSyncProgress(
  events: SyncEvents,
  dispatcher: WebhookDispatcher,
): { stop(): void } {
  const iterator = events.subscribe("sync:all")[Symbol.asyncIterator]();
  let isStopped = false;
  void (async () => {
    while (!isStopped) {
      const next = await iterator.next().catch(() => ({ done: true }) as const);
      if (next.done) return;
      dispatcher.wake();
    }
  })();
  return {
    stop() {
      isStopped = true;
      void iterator.return?.();
    },
  };
}
