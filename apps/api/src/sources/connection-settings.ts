// The non-secret settings a connection keeps in its `settings` JSON, with their defaults: read by
// the driver that opens a session and by the connection service and GraphQL type that show them.
import type { Connection } from "@hyperlens/db";

/** Non-secret settings kept in the connection's `settings` JSON. */
export interface ConnectionSettings {
  maxConcurrentRequests?: number;
}

/** Proxmox's API proxy runs 3 workers by default; 4 keeps them busy without queueing much. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 4;

/** The settings of a stored connection, with defaults. */
export function connectionSettings(
  connection: Pick<Connection, "settings">,
): Required<ConnectionSettings> {
  const stored = (connection.settings ?? {}) as ConnectionSettings;
  return { maxConcurrentRequests: stored.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS };
}
