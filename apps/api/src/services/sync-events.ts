// Live progress of syncs, per connection and for all of them. In-process by default; the
// scheduler work swaps in Redis so several replicas share it.
import type { SyncProgressEvent } from "@hyperlens/shared";
import { createPubSub } from "graphql-yoga";

/** A progress event with the connection and run it belongs to. */
export interface SyncProgress {
  connectionId: string;
  syncRunId: string | null;
  at: string;
  event: SyncProgressEvent;
}

export function createSyncEvents() {
  return createPubSub<{
    "sync:connection": [connectionId: string, event: SyncProgress];
    "sync:all": [event: SyncProgress];
  }>();
}

/** The pub/sub that carries sync progress. */
export type SyncEvents = ReturnType<typeof createSyncEvents>;

/** Publishes one event to its connection's topic and the all-connections topic. */
export function publishProgress(events: SyncEvents, event: SyncProgress) {
  events.publish("sync:connection", event.connectionId, event);
  events.publish("sync:all", event);
}
