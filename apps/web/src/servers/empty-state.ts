// What the Servers page says when there is no guest at all: what this viewer can do next, which
// is not always "press Sync" (docs/behaviour.md §9: a viewer may lack RUN_SYNC or any MANAGE_*).
import {
  type Capability,
  CONNECTION_KINDS,
  type ConnectionKind,
  canRunSync,
  MANAGE_CAPABILITY,
} from "@hyperlens/shared";
import type { MessageKey } from "../i18n/i18n.ts";

/** The empty page's text and whether it offers to add a connection. */
export interface EmptyState {
  body: MessageKey;
  canAddConnection: boolean;
}

/** The next step for this viewer, from the connections it sees and whether a sync is running. */
export function emptyState(input: {
  connections: readonly { isActive: boolean }[];
  capabilities: readonly Capability[];
  isSyncing: boolean;
}): EmptyState {
  const canManage = CONNECTION_KINDS.some((kind: ConnectionKind) =>
    input.capabilities.includes(MANAGE_CAPABILITY[kind]),
  );
  const state = (body: MessageKey): EmptyState => ({ body, canAddConnection: canManage });
  if (input.connections.length === 0) {
    return state(canManage ? "servers.empty.addFirst" : "servers.empty.askForConnection");
  }
  if (!input.connections.some((c) => c.isActive)) {
    return state(canManage ? "servers.empty.allInactive" : "servers.empty.askToActivate");
  }
  if (input.isSyncing) return state("servers.empty.syncing");
  return state(canRunSync(input.capabilities) ? "servers.empty.body" : "servers.empty.noSyncRight");
}
