// What the server needs from each kind of hypervisor source: a session that can test the login
// and read the inventory into the neutral shape. Adding a source means one driver and one line in
// the registry.
import type { Connection } from "@hyperlens/db";
import type { HyperLogger, HyperMetrics } from "@hyperlens/hyper-http";
import type {
  GuestListing,
  ListedGuest,
  ReadGuest,
  ServerText,
  SourceSnapshot,
} from "@hyperlens/shared";
import { connectionSettings } from "./connection-settings.ts";

/** An open session with one hypervisor connection. */
export interface SourceSession {
  /**
   * Logs in and reads something small; throws a HyperError that says what is wrong. The summary
   * is a code and parameters (docs/behaviour.md §11.4).
   */
  test(): Promise<{ summary: ServerText; privilegeWarning?: string | null }>;
  /** Reads the whole inventory (docs/behaviour.md §3–§5). */
  read(signal?: AbortSignal): Promise<SourceSnapshot>;
  /**
   * The light poll's reads (docs/behaviour.md §8.7): every guest the lists show, and the details
   * of the given guests as `read` would read them. Absent where the source has no light poll yet.
   */
  lightPoll?: {
    list(signal?: AbortSignal): Promise<GuestListing>;
    readGuests(guests: ListedGuest[], signal?: AbortSignal): Promise<ReadGuest[]>;
  };
  /** Logs out where the source has sessions (Director, vCenter) and releases connections. */
  close(): Promise<void>;
}

/** What a driver gets besides the connection and its secret. */
export interface SourceContext {
  logger: HyperLogger;
  correlationId: string;
  /** Counts each hypervisor call into the app's metrics; pass it to the HTTP options. */
  metrics?: HyperMetrics;
  /** Connect to loopback and link-local addresses (the server's outbound address policy). */
  allowLoopbackTargets: boolean;
}

/** Opens sessions for one kind of connection. */
export interface SourceDriver {
  /** Its sessions offer `lightPoll` (docs/behaviour.md §8.7). */
  hasLightPoll?: boolean;
  open(connection: Connection, secret: string, context: SourceContext): SourceSession;
}

/** The one-door HTTP options every driver builds from a stored connection. */
export function httpOptionsFor(
  connection: Connection,
  { logger, correlationId, metrics, allowLoopbackTargets }: SourceContext,
) {
  return {
    connectionId: connection.id,
    baseUrl: connection.baseUrl,
    verifyTls: connection.verifyTls,
    caPem: connection.caPem,
    // TRAP: outbound policy (docs/operations.md) — checked again at connect, after a fresh lookup.
    allowLoopbackTargets,
    logger,
    correlationId,
    ...(metrics ? { metrics } : {}),
    concurrency: { perConnection: connectionSettings(connection).maxConcurrentRequests },
  };
}

/** Proxmox: requests in flight to one node (docs/behaviour.md §3.7); undefined for the others. */
export function requestsPerNodeOf(connection: Connection): number | undefined {
  return connectionSettings(connection).maxRequestsPerNode ?? undefined;
}

/** The client options of a source that logs in per session with the connection's user and secret. */
export function sessionClientOptions(
  connection: Connection,
  secret: string,
  context: SourceContext,
) {
  return {
    http: httpOptionsFor(connection, context),
    credentials: { username: connection.username, password: secret },
    logger: context.logger,
  };
}

/** The read options every driver passes its adapter: the sync's abort signal. */
export function readOptionsFor(signal?: AbortSignal) {
  // The adapters' own list events stay here: the sync engine reports each list once, from the
  // snapshot (docs/behaviour.md §8.4); forwarding them as well sent every list twice.
  return signal ? { signal } : {};
}
