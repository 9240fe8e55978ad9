import { FaultSwitches } from "../http/faults.ts";
import type { RequestLogEntry, StandinStats } from "../http/request-log.ts";
import { startStandinServer } from "../http/server.ts";
import type { WorkerPool } from "../http/worker-pool.ts";
import { standinTls } from "../tls.ts";
import { ProxmoxAuth, type ProxmoxTokenSpec, type ProxmoxUserSpec } from "./auth.ts";
import { demoCluster } from "./demo-cluster.ts";
import { API_BASE, proxmoxHandler } from "./handler.ts";
import { type ClusterSpec, ProxmoxCluster } from "./model.ts";
import { PveReplies } from "./replies.ts";
import { type PveVersion, versionTraits } from "./versions.ts";

/** The token every stand-in accepts unless `tokens` says otherwise (PVEAuditor on `/`). */
export const DEFAULT_TOKEN: ProxmoxTokenSpec = {
  id: "hyperlens@pve!inventory",
  secret: "5f0c8e4e-8f5b-4c1e-9a57-2d3b1f6c7a90",
  role: "auditor",
};

/** The user every stand-in accepts for ticket logins unless `users` says otherwise. */
export const DEFAULT_USER: ProxmoxUserSpec = {
  username: "root@pam",
  password: "standin-password",
  role: "admin",
};

/** Two hours, pve-access-control's `$ticket_lifetime`. */
export const TICKET_LIFETIME_MS = 2 * 60 * 60 * 1000;

/** Options of {@link createProxmoxStandin}; every field is optional. */
export interface ProxmoxStandinOptions {
  /** The inventory to serve (a model, or a spec to build one); default {@link demoCluster}. */
  cluster?: ProxmoxCluster | ClusterSpec;
  /** Release to imitate; default "8.4". */
  version?: PveVersion;
  /** Accepted API tokens; default [{@link DEFAULT_TOKEN}]. */
  tokens?: ProxmoxTokenSpec[];
  /** Users for ticket login; default [{@link DEFAULT_USER}]. */
  users?: ProxmoxUserSpec[];
  /** Ticket lifetime; default two hours. */
  ticketTtlMs?: number;
  /** Clock for ticket expiry, Date headers and the request log; default `Date.now`. */
  now?: () => number;
  /** Delay before every 401 (real servers wait ~3 s); default 0. */
  authFailureDelayMs?: number;
  /** Latency added to every request (also settable later through `faults.latencyMs`). */
  latencyMs?: number;
  /** Requests handled at once, the rest queue (pveproxy runs 3 workers); default unlimited. */
  maxWorkers?: number;
  /** Override whether JSON error bodies carry `"message"` (default: by release). */
  errorMessageInBody?: boolean;
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

/** A running Proxmox VE stand-in. */
export interface ProxmoxStandin {
  /** Base address as an operator would enter it, e.g. `https://127.0.0.1:40123`. */
  url: string;
  /** `url` + `/api2/json`. */
  apiUrl: string;
  /** The CA that signed the server certificate; give it to the client as the connection's CA PEM. */
  caPem: string;
  port: number;
  version: PveVersion;
  /** The live model: change it between syncs. */
  cluster: ProxmoxCluster;
  /** Fault switches and global latency. */
  faults: FaultSwitches;
  /** Every request received (method, path, query, status, at…), in arrival order. */
  requests: RequestLogEntry[];
  stats: StandinStats;
  /** The worker queue (see `maxWorkers`). */
  workers: WorkerPool;
  /** Ready-made `Authorization` header value for the first configured token. */
  tokenHeader: string;
  /** Invalidate every ticket issued so far (as if two hours had passed). */
  expireAllTickets(): void;
  /** Stop the server and drop open connections. */
  close(): Promise<void>;
}

/** Start a Proxmox VE stand-in over real HTTPS on 127.0.0.1. */
export async function createProxmoxStandin(
  options: ProxmoxStandinOptions = {},
): Promise<ProxmoxStandin> {
  const version = options.version ?? "8.4";
  const now = options.now ?? Date.now;
  const baseTraits = versionTraits(version);
  const traits =
    options.errorMessageInBody === undefined
      ? baseTraits
      : { ...baseTraits, errorMessageInBody: options.errorMessageInBody };
  const cluster =
    options.cluster instanceof ProxmoxCluster
      ? options.cluster
      : options.cluster
        ? new ProxmoxCluster(options.cluster)
        : demoCluster();
  const tokens = options.tokens ?? [DEFAULT_TOKEN];
  const auth = new ProxmoxAuth({
    tokens,
    users: options.users ?? [DEFAULT_USER],
    ticketTtlMs: options.ticketTtlMs ?? TICKET_LIFETIME_MS,
    now,
  });
  const faults = new FaultSwitches(API_BASE);
  faults.latencyMs = options.latencyMs ?? 0;
  const replies = new PveReplies(traits, now);
  const server = await startStandinServer({
    tls: await standinTls(),
    faults,
    host: options.host,
    port: options.port,
    maxWorkers: options.maxWorkers,
    now,
    handle: proxmoxHandler({
      cluster,
      traits,
      auth,
      replies,
      authFailureDelayMs: options.authFailureDelayMs ?? 0,
    }),
  });
  const firstToken = tokens[0];
  return {
    url: server.url,
    apiUrl: `${server.url}${API_BASE}`,
    caPem: (await standinTls()).caPem,
    port: server.port,
    version,
    cluster,
    faults,
    requests: server.requests,
    stats: server.stats,
    workers: server.workers,
    tokenHeader: firstToken ? `PVEAPIToken=${firstToken.id}=${firstToken.secret}` : "",
    expireAllTickets: () => auth.expireAllTickets(),
    close: () => server.close(),
  };
}
