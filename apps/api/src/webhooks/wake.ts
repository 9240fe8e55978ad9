// Wakes the webhook dispatcher when the change feed advances, so new events are delivered at once
// rather than at the next poll. The notice reaches every replica through Redis when it is
// configured; the dispatcher's poll covers a sync in a process that cannot send it.
import type { SyncEvents } from "../syncs/progress-events.ts";
import type { WebhookDispatcher } from "./dispatcher.ts";

export function wakeOnFeedAdvanced(
  events: Pick<SyncEvents, "subscribe">,
  dispatcher: Pick<WebhookDispatcher, "wake">,
): { stop(): void } {
  const iterator = events.subscribe("feed:advanced")[Symbol.asyncIterator]();
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
