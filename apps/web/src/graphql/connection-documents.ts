// GraphQL documents about connections, shared by the Servers and Settings pages.

export const CONNECTION_FIELDS = `id name kind url username tokenId hasSecret caPem verifyTls isProvider
  isActive syncIntervalSeconds lastSyncAt lastSuccessAt lastSyncOutcome lastSyncMessage
  consecutiveFailures privilegeWarning`;

export const CONNECTIONS = `query Connections($kind: ConnectionKind) {
  connections(kind: $kind) { ${CONNECTION_FIELDS} }
}`;

const SAVE_RESULT = `__typename
  ... on ValidationError { message field problems { field message } }`;

export const SAVE_CONNECTION = {
  PROXMOX: `mutation SaveProxmox($input: ProxmoxConnectionInput!) {
    result: saveProxmoxConnection(input: $input) { ${SAVE_RESULT} ... on MutationSaveProxmoxConnectionSuccess { data { ${CONNECTION_FIELDS} } } }
  }`,
  VCD: `mutation SaveVcd($input: VcdConnectionInput!) {
    result: saveVcdConnection(input: $input) { ${SAVE_RESULT} ... on MutationSaveVcdConnectionSuccess { data { ${CONNECTION_FIELDS} } } }
  }`,
  VCENTER: `mutation SaveVcenter($input: VcenterConnectionInput!) {
    result: saveVcenterConnection(input: $input) { ${SAVE_RESULT} ... on MutationSaveVcenterConnectionSuccess { data { ${CONNECTION_FIELDS} } } }
  }`,
} as const;

export const DELETE_CONNECTION =
  "mutation DeleteConnection($id: ID!) { deleteConnection(id: $id) }";

export const TEST_CONNECTION = `mutation TestConnection($id: ID!) {
  testConnection(id: $id) { ok errorClass message }
}`;

// A run handed back under the manual-sync cool-down says so; the page shows when the next is possible.
const STARTED_RUN = `id outcome connection { id name kind }
  manualSyncCooldown { secondsSinceLastRun nextManualSyncAt }`;

export const SYNC_CONNECTION = `mutation SyncConnection($id: ID!) {
  syncConnection(id: $id) { ${STARTED_RUN} }
}`;

export const SYNC_ALL = `mutation SyncAll { syncAll { ${STARTED_RUN} } }`;

export const EDGE_GATEWAYS = `query EdgeGateways($connectionId: ID) {
  edgeGateways(connectionId: $connectionId) { id name orgName ownerType ownerName externalId lastSeenAt }
}`;

export const SYNC_PROGRESS = `subscription SyncProgress($connectionId: ID) {
  syncProgress(connectionId: $connectionId) {
    at connectionId syncRunId type phase listKey listStatus count reason
    counts { added changed removed restored unchanged seen rowsWritten }
    outcome message errorClass guardKnown guardPresent
  }
}`;
