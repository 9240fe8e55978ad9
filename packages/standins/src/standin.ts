// What the Proxmox, Director and vCenter stand-ins are built from: the HTTPS server with its
// fault switches, latency and worker limit, the inventory given as a model or a spec, and the
// session counters. Each stand-in adds only what its API has of its own.
import type { Semaphore } from "@hyperlens/shared";
import { FaultSwitches } from "./http/faults.ts";
import type { StandinHandler } from "./http/reply.ts";
import type { RequestLogEntry, StandinStats } from "./http/request-log.ts";
import { startStandinServer } from "./http/server.ts";
import { standinTls } from "./tls.ts";

/** Options every HTTPS stand-in takes; all optional. */
export interface HttpsStandinOptions {
  /** Latency added to every request (also settable later through `faults.latencyMs`). */
  latencyMs?: number;
  /** Requests handled at once, the rest queue; default unlimited. */
  maxWorkers?: number;
  /** Clock for the request log, sessions or tickets, and Date headers; default `Date.now`. */
  now?: () => number;
  /** Listen address; default `127.0.0.1`. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

/** What every running HTTPS stand-in has, whatever API it imitates. */
export interface HttpsStandin {
  /** Base address as an operator would enter it, e.g. `https://127.0.0.1:40123`. */
  url: string;
  /** The CA that signed the server certificate; give it to the client as the connection's CA PEM. */
  caPem: string;
  port: number;
  /** Fault switches and the global latency. */
  faults: FaultSwitches;
  /** Every request received (method, path, query, status, at…), in arrival order. */
  requests: RequestLogEntry[];
  stats: StandinStats;
  /** The worker queue (see `maxWorkers`). */
  workers: Semaphore;
  /** Stop the server and drop open connections. */
  close(): Promise<void>;
}

/**
 * Start the HTTPS server of a stand-in on the shared stand-in CA, with fresh fault switches
 * (string patterns relative to `faultBasePath`, e.g. Proxmox's `/api2/json`) and the options'
 * latency, worker limit, clock and address.
 */
export async function startHttpsStandin(
  options: HttpsStandinOptions,
  handle: StandinHandler,
  faultBasePath = "",
): Promise<HttpsStandin> {
  const faults = new FaultSwitches(faultBasePath);
  faults.latencyMs = options.latencyMs ?? 0;
  const tls = await standinTls();
  const server = await startStandinServer({
    tls,
    faults,
    host: options.host,
    port: options.port,
    maxWorkers: options.maxWorkers,
    now: options.now,
    handle,
  });
  return {
    url: server.url,
    caPem: tls.caPem,
    port: server.port,
    faults,
    requests: server.requests,
    stats: server.stats,
    workers: server.workers,
    close: () => server.close(),
  };
}

/**
 * The inventory a stand-in serves: the model given, a model built from the spec given, or the
 * demo inventory. A given model stays live: the test that passed it changes what is served.
 */
export function modelFrom<Model extends object, Spec>(
  given: Model | Spec | undefined,
  ModelClass: new (spec: Spec) => Model,
  demo: () => Model,
): Model {
  if (given instanceof ModelClass) return given;
  return given ? new ModelClass(given as Spec) : demo();
}

/** What the Director and vCenter session stores have in common. */
export interface SessionStore<Session> {
  /** Sessions neither logged out nor expired. */
  readonly open: number;
  /** Every session ever opened, in order. */
  readonly history: readonly Session[];
  expireAll(): void;
}

/** The session counters of a stand-in with sessions, read live from its store. */
export interface SessionCounts<Session> {
  /** Sessions neither logged out nor expired. */
  readonly openSessions: number;
  /** Every session opened so far, closed and expired ones included. */
  readonly sessions: readonly Session[];
  /** Expire every session: their tokens answer 401 from now on. */
  expireAllSessions(): void;
}

/** Adds the {@link SessionCounts} of `store` to a stand-in object and returns it. */
export function withSessionCounts<Standin extends object, Session>(
  standin: Standin,
  store: SessionStore<Session>,
): Standin & SessionCounts<Session> {
  const counts: SessionCounts<Session> = {
    get openSessions() {
      return store.open;
    },
    get sessions() {
      return store.history;
    },
    expireAllSessions: () => store.expireAll(),
  };
  // Spreading would copy the counts once; their descriptors keep the getters live.
  return Object.defineProperties(standin, Object.getOwnPropertyDescriptors(counts)) as Standin &
    SessionCounts<Session>;
}
