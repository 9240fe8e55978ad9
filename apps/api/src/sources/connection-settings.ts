// The non-secret settings a connection keeps in its `settings` JSON, with their defaults: read by
// the driver that opens a session and by the connection service and GraphQL type that show them.
import type { Connection, ConnectionKind } from "@hyperlens/db";
import { DEFAULT_REQUESTS_PER_NODE } from "@hyperlens/proxmox";

/** Non-secret settings kept in the connection's `settings` JSON. */
export interface ConnectionSettings {
  maxConcurrentRequests?: number;
  /** Proxmox only: requests in flight to one node's pveproxy (docs/behaviour.md §3.7). */
  maxRequestsPerNode?: number;
  /** Seconds between light polls (docs/behaviour.md §8.7); 0 turns them off. */
  lightPollSeconds?: number;
}

/** The most either limit may be set to (docs/behaviour.md §3.7). */
export const MAX_CONCURRENCY_SETTING = 16;

/**
 * Requests in flight per connection when none is set. Proxmox: a cluster serves its nodes side by
 * side, each with its own pveproxy, so 16 (2 per node, capped) keeps 8 or more nodes busy
 * (docs/behaviour.md §3.7). Director and vCenter answer everything from one server: 4.
 */
export const DEFAULT_MAX_CONCURRENT_REQUESTS: Record<ConnectionKind, number> = {
  PROXMOX: 16,
  VCD: 4,
  VCENTER: 4,
};

/** A light poll every 15 s: a new guest shows within 20 s at one request per poll (Proxmox). */
export const DEFAULT_LIGHT_POLL_SECONDS = 15;

/** The settings of a stored connection, with defaults; the per-node limit only for Proxmox. */
export function connectionSettings(connection: Pick<Connection, "settings" | "kind">): {
  maxConcurrentRequests: number;
  maxRequestsPerNode: number | null;
  lightPollSeconds: number;
} {
  const stored = storedSettings(connection);
  return {
    maxConcurrentRequests:
      stored.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS[connection.kind],
    maxRequestsPerNode:
      connection.kind === "PROXMOX"
        ? (stored.maxRequestsPerNode ?? DEFAULT_REQUESTS_PER_NODE)
        : null,
    lightPollSeconds: stored.lightPollSeconds ?? DEFAULT_LIGHT_POLL_SECONDS,
  };
}

/** Only what was set: a default is not written back, so it can change in a later release. */
export function storedSettings(connection: Pick<Connection, "settings">): ConnectionSettings {
  const stored = (connection.settings ?? {}) as ConnectionSettings;
  return {
    ...(stored.maxConcurrentRequests
      ? { maxConcurrentRequests: stored.maxConcurrentRequests }
      : {}),
    ...(stored.maxRequestsPerNode ? { maxRequestsPerNode: stored.maxRequestsPerNode } : {}),
    ...(stored.lightPollSeconds !== undefined ? { lightPollSeconds: stored.lightPollSeconds } : {}),
  };
}
