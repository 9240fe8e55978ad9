import { FaultSwitches } from "../http/faults.ts";
import type { RequestLogEntry, StandinStats } from "../http/request-log.ts";
import { startStandinServer } from "../http/server.ts";
import type { WorkerPool } from "../http/worker-pool.ts";
import { standinTls } from "../tls.ts";
import { demoVcenter } from "./demo-vcenter.ts";
import { type VcenterSettings, type VcenterWriteAttempt, vcenterHandler } from "./handler.ts";
import { VcenterModel, type VcenterSpec } from "./model.ts";
import {
  assertModelFitsRelease,
  DEFAULT_VCENTER_RELEASE,
  type VcenterRelease,
  vcenterReleaseTraits,
} from "./releases.ts";
import { type VcenterSession, VcenterSessions, type VcenterUserSpec } from "./sessions.ts";

/** The password of the default user. */
export const DEFAULT_VCENTER_PASSWORD = "standin-password";

/** The accepted user by default: a read-only inventory account of vsphere.local. */
export const DEFAULT_VCENTER_USERS: VcenterUserSpec[] = [
  { user: "hyperlens@vsphere.local", password: DEFAULT_VCENTER_PASSWORD },
];

/** Options of {@link createVcenterStandin}; every field is optional. */
export interface VcenterStandinOptions {
  /** The inventory (a model, or a spec to build one); default {@link demoVcenter}. */
  model?: VcenterModel | VcenterSpec;
  /**
   * The release imitated (default {@link DEFAULT_VCENTER_RELEASE}); a model holding a VM only a
   * later release can hold (e.g. VMX_21 on 7.0.3) is refused with a RangeError.
   */
  release?: VcenterRelease;
  /** Accepted users; default {@link DEFAULT_VCENTER_USERS}. */
  users?: VcenterUserSpec[];
  /** Most VMs one list call answers before 500 UNABLE_TO_ALLOCATE_RESOURCE; default 4,000. */
  vmListCap?: number;
  /** Latency added to every request (also `faults.latencyMs` later). */
  latencyMs?: number;
  /** Requests handled at once, the rest queue; default unlimited. */
  maxWorkers?: number;
  /** Clock for sessions and the request log; default `Date.now`. */
  now?: () => number;
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

/** A running vCenter stand-in. */
export interface VcenterStandin {
  /** Base address as an operator would enter it, e.g. `https://127.0.0.1:40123`. */
  url: string;
  /** The CA that signed the server certificate (the connection's CA PEM). */
  caPem: string;
  port: number;
  /** The live inventory: change it between syncs. */
  model: VcenterModel;
  /** The release imitated. */
  release: VcenterRelease;
  /** Live switches (the VM list cap): change them between requests. */
  settings: VcenterSettings;
  /** Fault switches (paths are absolute: `/api/vcenter/vm`, `/api/session`). */
  faults: FaultSwitches;
  /** Every request received, in arrival order. */
  requests: RequestLogEntry[];
  stats: StandinStats;
  workers: WorkerPool;
  /** Refused writes (anything but GET and the session POST/DELETE), in arrival order. */
  writeAttempts: VcenterWriteAttempt[];
  /** Sessions neither logged out nor expired. */
  readonly openSessions: number;
  /** Every session opened so far, closed and expired ones included. */
  readonly sessions: readonly VcenterSession[];
  /** Expire every session: their tokens answer 401 from now on. */
  expireAllSessions(): void;
  /** `Basic …` header value for a user (default: the first configured one). */
  basicAuth(user?: VcenterUserSpec): string;
  /** Stop the server and drop open connections. */
  close(): Promise<void>;
}

/** Start a vCenter stand-in over real HTTPS on 127.0.0.1. */
export async function createVcenterStandin(
  options: VcenterStandinOptions = {},
): Promise<VcenterStandin> {
  const now = options.now ?? Date.now;
  const model =
    options.model instanceof VcenterModel
      ? options.model
      : options.model
        ? new VcenterModel(options.model)
        : demoVcenter();
  const release = options.release ?? DEFAULT_VCENTER_RELEASE;
  assertModelFitsRelease(model.vms, release);
  const users = options.users ?? DEFAULT_VCENTER_USERS;
  const sessions = new VcenterSessions(users, now);
  const settings: VcenterSettings = { vmListCap: options.vmListCap ?? 4000 };
  const writeAttempts: VcenterWriteAttempt[] = [];
  const faults = new FaultSwitches();
  faults.latencyMs = options.latencyMs ?? 0;
  const tls = await standinTls();
  const server = await startStandinServer({
    tls,
    faults,
    host: options.host,
    port: options.port,
    maxWorkers: options.maxWorkers,
    now,
    handle: vcenterHandler({
      model,
      sessions,
      settings,
      writeAttempts,
      release: vcenterReleaseTraits(release),
    }),
  });
  return {
    url: server.url,
    caPem: tls.caPem,
    port: server.port,
    model,
    release,
    settings,
    faults,
    requests: server.requests,
    stats: server.stats,
    workers: server.workers,
    writeAttempts,
    get openSessions() {
      return sessions.open;
    },
    get sessions() {
      return sessions.history;
    },
    expireAllSessions: () => sessions.expireAll(),
    basicAuth: (user = users[0]) =>
      user ? `Basic ${Buffer.from(`${user.user}:${user.password}`).toString("base64")}` : "",
    close: () => server.close(),
  };
}
