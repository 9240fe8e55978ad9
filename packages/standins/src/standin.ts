// What the Proxmox, Director and vCenter stand-ins are built from: the HTTPS server, the
// inventory given as a model or a spec, and the session counters. Each stand-in adds only what
// its API has of its own. The testing entry plugs its fault switches in through `intercept`.
import type { StandinHandler } from "./http/reply.ts";
import { type StandinInterceptor, startStandinServer } from "./http/server.ts";
import { standinTls } from "./tls.ts";

/** Options every HTTPS stand-in takes; all optional. */
export interface HttpsStandinOptions {
  /** Latency added to every request. */
  latencyMs?: number;
  /** Clock for sessions or tickets, and Date headers; default `Date.now`. */
  now?: () => number;
  /** Listen address; default `127.0.0.1`. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Wraps the stand-in's handler on every request (see {@link StandinInterceptor}). */
  intercept?: StandinInterceptor;
}

/** What every running HTTPS stand-in has, whatever API it imitates. */
export interface HttpsStandin {
  /** Base address as an operator would enter it, e.g. `https://127.0.0.1:40123`. */
  url: string;
  /** The CA that signed the server certificate; give it to the client as the connection's CA PEM. */
  caPem: string;
  port: number;
  /** Stop the server and drop open connections. */
  close(): Promise<void>;
}

/** Start the HTTPS server of a stand-in on the shared stand-in CA, with the options' latency and address. */
export async function startHttpsStandin(
  options: HttpsStandinOptions,
  handle: StandinHandler,
): Promise<HttpsStandin> {
  const tls = await standinTls();
  const server = await startStandinServer({
    tls,
    handle,
    host: options.host,
    port: options.port,
    latencyMs: options.latencyMs,
    intercept: options.intercept,
  });
  return {
    url: server.url,
    caPem: tls.caPem,
    port: server.port,
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
