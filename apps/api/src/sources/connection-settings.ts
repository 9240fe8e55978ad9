// The non-secret settings a connection keeps in its `settings` JSON, with their defaults: read by
// the driver that opens a session and by the connection service and GraphQL type that show them.
import type { Connection } from "@hyperlens/db";

/** Non-secret settings kept in the connection's `settings` JSON. */
export interface ConnectionSettings {
  maxConcurrentRequests?: number;
  /** Seconds between light polls (docs/behaviour.md §8.7); 0 turns them off. */
  lightPollSeconds?: number;
}

/** Proxmox's API proxy runs 3 workers by default; 4 keeps them busy without queueing much. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 4;

/** A light poll every 15 s: a new guest shows within 20 s at one request per poll (Proxmox). */
export const DEFAULT_LIGHT_POLL_SECONDS = 15;

/** The settings of a stored connection, with defaults. */
export function connectionSettings(
  connection: Pick<Connection, "settings">,
): Required<ConnectionSettings> {
  const stored = (connection.settings ?? {}) as ConnectionSettings;
  return {
    maxConcurrentRequests: stored.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS,
    lightPollSeconds: stored.lightPollSeconds ?? DEFAULT_LIGHT_POLL_SECONDS,
  };
}
