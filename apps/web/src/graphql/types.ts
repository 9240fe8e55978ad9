// The shapes the web app selects from apps/api/schema.graphql.
import type {
  Capability,
  ConnectionKind,
  GuestKind,
  NeutralPowerState as PowerState,
  SyncOutcome,
} from "@hyperlens/shared";

export type { Capability, ConnectionKind, PowerState, SyncOutcome };

export type OrderField = "NAME" | "SOURCE" | "STATE" | "CPU" | "MEMORY" | "LAST_SEEN" | "CHANGED";
export type OrderDirection = "ASC" | "DESC";

export interface Viewer {
  username: string;
  isAdmin: boolean;
  capabilities: Capability[];
}

export interface Connection {
  id: string;
  name: string;
  kind: ConnectionKind;
  url: string | null;
  username: string | null;
  tokenId: string | null;
  hasSecret: boolean | null;
  caPem: string | null;
  verifyTls: boolean | null;
  isProvider: boolean | null;
  isActive: boolean;
  syncIntervalSeconds: number | null;
  lastSyncAt: string | null;
  lastSuccessAt: string | null;
  lastSyncOutcome: SyncOutcome | null;
  lastSyncMessage: string | null;
  consecutiveFailures: number;
  privilegeWarning: string | null;
}

export interface VmLocation {
  nodeName: string | null;
  clusterName: string | null;
  datacenterName: string | null;
  hostName: string | null;
  orgName: string | null;
  vdcName: string | null;
  vappName: string | null;
}

/** One row of the Servers table. */
export interface VmRow {
  id: string;
  name: string;
  source: ConnectionKind;
  kind: GuestKind;
  state: PowerState;
  cpuCount: number | null;
  memoryBytes: number | null;
  diskTotalBytes: number | null;
  lastSeenAt: string;
  confirmation: string;
  location: VmLocation;
  ipAddresses: { address: string }[];
  connection: { id: string; name: string };
}

export interface VmFilter {
  search?: string;
  source?: ConnectionKind[];
  state?: PowerState[];
  connectionId?: string[];
  kind?: GuestKind[];
}

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface FieldProblem {
  field: string | null;
  message: string;
}

/** A mutation result union: success with data, or an error type with a message. */
export type MutationResult<T> =
  | { __typename: `${string}Success`; data: T }
  | {
      __typename: "ValidationError";
      message: string;
      field: string | null;
      problems: FieldProblem[];
    }
  | { __typename: "InvalidCredentialsError" | "RateLimitedError"; message: string };
