// The Proxmox, Director and vCenter stand-ins with the instruments plugged in: what tests and
// benchmarks start, so they can fail a route, read the request log or limit the workers.
import { API_BASE } from "../proxmox/handler.ts";
import {
  createProxmoxStandin as createPlainProxmoxStandin,
  type ProxmoxStandin as PlainProxmoxStandin,
  type ProxmoxStandinOptions as PlainProxmoxStandinOptions,
} from "../proxmox/server.ts";
import type { HttpsStandinOptions, HttpsStandin as PlainHttpsStandin } from "../standin.ts";
import {
  createVcdStandin as createPlainVcdStandin,
  type VcdStandin as PlainVcdStandin,
  type VcdStandinOptions as PlainVcdStandinOptions,
} from "../vcd/server.ts";
import {
  createVcenterStandin as createPlainVcenterStandin,
  type VcenterStandin as PlainVcenterStandin,
  type VcenterStandinOptions as PlainVcenterStandinOptions,
} from "../vcenter/server.ts";
import { type InstrumentOptions, instrumented, type StandinInstruments } from "./instruments.ts";
import { NodeWorkers, PVEPROXY_WORKERS } from "./node-workers.ts";

/** A running stand-in of any API, with its instruments. */
export interface HttpsStandin extends PlainHttpsStandin, StandinInstruments {}

export interface ProxmoxStandinOptions extends PlainProxmoxStandinOptions, InstrumentOptions {
  /** pveproxy workers per node (default 3): more requests for one node queue behind them. */
  workersPerNode?: number;
}
/**
 * A Proxmox VE stand-in whose nodes each serve with their own pveproxy workers (the latency is
 * spent on one); fault switch paths are relative to `/api2/json`. `nodeWorkers` counts a request
 * from its arrival; the request log and `stats` once a worker serves it.
 */
export interface ProxmoxStandin extends PlainProxmoxStandin, StandinInstruments {
  /** The nodes' worker pools, with the most requests each node had in flight at once. */
  nodeWorkers: NodeWorkers;
}

export interface VcdStandinOptions extends PlainVcdStandinOptions, InstrumentOptions {}
/** A Cloud Director stand-in; fault switch paths are absolute (`/api/query`, `/cloudapi/…`). */
export interface VcdStandin extends PlainVcdStandin, StandinInstruments {}

export interface VcenterStandinOptions extends PlainVcenterStandinOptions, InstrumentOptions {}
/** A vCenter stand-in; fault switch paths are absolute (`/api/vcenter/vm`, `/api/session`). */
export interface VcenterStandin extends PlainVcenterStandin, StandinInstruments {}

/** Start a Proxmox VE stand-in with its instruments and a worker pool per node. */
export async function createProxmoxStandin(
  options: ProxmoxStandinOptions = {},
): Promise<ProxmoxStandin> {
  const nodeWorkers = new NodeWorkers(options.workersPerNode ?? PVEPROXY_WORKERS);
  const standin = await withInstruments(
    (plain: PlainProxmoxStandinOptions) =>
      createPlainProxmoxStandin({
        ...plain,
        ...(plain.intercept ? { intercept: nodeWorkers.interceptor(plain.intercept) } : {}),
      }),
    options,
    API_BASE,
  );
  return Object.assign(standin, { nodeWorkers });
}

/** Start a Cloud Director stand-in with its instruments. */
export function createVcdStandin(options: VcdStandinOptions = {}): Promise<VcdStandin> {
  return withInstruments(createPlainVcdStandin, options);
}

/** Start a vCenter stand-in with its instruments. */
export function createVcenterStandin(options: VcenterStandinOptions = {}): Promise<VcenterStandin> {
  return withInstruments(createPlainVcenterStandin, options);
}

function withInstruments<Options extends HttpsStandinOptions, Standin extends object>(
  create: (options: Options) => Promise<Standin>,
  options: Options & InstrumentOptions,
  faultBasePath?: string,
): Promise<Standin & StandinInstruments> {
  // The instruments own the latency, so that a test can change it while the stand-in runs.
  return instrumented(
    (intercept) => create({ ...options, latencyMs: 0, intercept }),
    options,
    faultBasePath,
  );
}
