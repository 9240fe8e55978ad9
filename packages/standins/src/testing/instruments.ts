// What tests and benchmarks add to a stand-in server through its interceptor: fault switches, a
// global latency they can change, a worker limit, the request log and its counters.
import type { IncomingMessage } from "node:http";
import { createSemaphore, type Semaphore } from "@hyperlens/shared";
import type { StandinReply } from "../http/reply.ts";
import { type StandinInterceptor, wait } from "../http/server.ts";
import { type FaultAction, FaultSwitches, faultEditedReply, faultReply } from "./faults.ts";
import { sendFlood } from "./flood.ts";
import { type RequestLogEntry, StandinStats } from "./request-log.ts";

/** Options of {@link instrumented}; all optional. */
export interface InstrumentOptions {
  /** Latency added to every request (also settable later through `faults.latencyMs`). */
  latencyMs?: number;
  /** Requests handled at once, the rest queue (pveproxy runs 3 workers); default unlimited. */
  maxWorkers?: number;
  /** Clock for the request log; default `Date.now`. */
  now?: () => number;
}

/** What an instrumented server or stand-in has on top of its own. */
export interface StandinInstruments {
  /**
   * Fault switches and the global latency. String patterns are relative to the API base the
   * stand-in gives (Proxmox: `/api2/json`), absolute for the others.
   */
  faults: FaultSwitches;
  /** Every request received (method, path, query, status, at…), in arrival order (a live array). */
  requests: RequestLogEntry[];
  stats: StandinStats;
  /**
   * The worker queue, standing in for a server's fixed worker processes so a benchmark sees the
   * queueing a real pveproxy imposes (peak concurrency of handled requests in `peakInUse`).
   */
  workers: Semaphore;
}

/**
 * Starts a server or stand-in with the instruments plugged into its interceptor, and returns it
 * with them: `instrumented((intercept) => createVcdStandin({ intercept }), { maxWorkers: 3 })`.
 */
export async function instrumented<Started extends object>(
  start: (intercept: StandinInterceptor) => Promise<Started>,
  options: InstrumentOptions = {},
  faultBasePath = "",
): Promise<Started & StandinInstruments> {
  const faults = new FaultSwitches(faultBasePath);
  faults.latencyMs = options.latencyMs ?? 0;
  const instruments: StandinInstruments = {
    faults,
    requests: [],
    stats: new StandinStats(),
    workers: createSemaphore(options.maxWorkers ?? Number.POSITIVE_INFINITY),
  };
  const started = await start(interceptor(instruments, options.now ?? Date.now));
  return Object.assign(started, instruments);
}

/** Logs, counts, queues, delays and faults each request around the handler. */
function interceptor(
  { faults, requests, stats, workers }: StandinInstruments,
  now: () => number,
): StandinInterceptor {
  return async ({ request, req, res, closed }, next) => {
    const { method, path } = request;
    const entry: RequestLogEntry = {
      method,
      path,
      query: new URL(req.url ?? "/", "https://standin.invalid").search.slice(1),
      status: 0,
      at: now(),
    };
    requests.push(entry);
    stats.begin(method, path);
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      stats.end(entry.route);
    };
    res.on("close", finish);

    const release = await workers.acquire();
    try {
      const fault = faults.take(method, path);
      if (fault) entry.fault = fault.name;
      const delayMs = faults.latencyMs + (fault?.action.kind === "delay" ? fault.action.ms : 0);
      if (delayMs > 0 && !(await wait(delayMs, closed))) return undefined;
      if (res.destroyed) return undefined;
      if (fault?.action.kind === "flood") {
        entry.status = fault.action.status;
        finish();
        await sendFlood(res, fault.action, entry, closed);
        return undefined;
      }
      const early = fault ? answerFault(fault.action, req) : undefined;
      if (early === "unanswered") return undefined;
      const reply = faultEditedReply(fault?.action, early ?? (await next()));
      entry.route = reply.route;
      entry.status = reply.status;
      // Counted before the bytes leave: a client may see the answer before "close" fires here.
      finish();
      return reply;
    } finally {
      release();
    }
  };
}

/** A fault that replaces the answer, or "unanswered" when nothing must be sent. */
function answerFault(
  action: FaultAction,
  req: IncomingMessage,
): StandinReply | "unanswered" | undefined {
  if (action.kind === "hang") return "unanswered";
  if (action.kind === "reset") {
    try {
      req.socket.resetAndDestroy();
    } catch {
      // A TLS socket may refuse a TCP reset; destroying it still drops the connection unanswered.
      req.socket.destroy();
    }
    return "unanswered";
  }
  return faultReply(action);
}
