// The vCenter stand-in without a socket: the same handler, sessions, release traits and fault
// switches as the HTTPS stand-in, answering through a transport hyper-http takes as its
// dispatcher. Property runs sync thousands of times; TLS handshakes would dominate their time.
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { type SessionCounts, withSessionCounts } from "../standin.ts";
import { type VcenterCoreOptions, vcenterCore } from "../vcenter/core.ts";
import type { VcenterSettings, VcenterWriteAttempt } from "../vcenter/handler.ts";
import type { VcenterModel } from "../vcenter/model.ts";
import type { VcenterRelease } from "../vcenter/releases.ts";
import type { VcenterSession } from "../vcenter/sessions.ts";
import { FaultSwitches, faultEditedReply, faultReply } from "./faults.ts";
import type { RequestLogEntry } from "./request-log.ts";

/** One request as hyper-http hands it to its dispatcher (undici's `Dispatcher.request` options). */
export interface TransportRequest {
  origin: string | URL;
  path: string;
  method: string;
  headers?: Record<string, string> | null;
  body?: string | null;
  signal?: AbortSignal | null;
}

/** The answer, shaped like undici's `Dispatcher.ResponseData` as far as hyper-http reads it. */
export interface TransportResponse {
  statusCode: number;
  statusText: string;
  headers: Record<string, string | string[]>;
  body: Readable;
}

/** What hyper-http needs of a dispatcher: `request`, and `close` it never calls on one it was given. */
export interface InProcessTransport {
  request(request: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

/** Options of {@link createInProcessVcenter}: those of the HTTPS stand-in's inventory. */
export type InProcessVcenterOptions = VcenterCoreOptions;

/** An in-process vCenter: the parts of {@link VcenterStandin} a property run uses, plus its transport. */
export interface InProcessVcenter extends SessionCounts<VcenterSession> {
  /** A base URL that only this transport answers. */
  url: string;
  model: VcenterModel;
  release: VcenterRelease;
  settings: VcenterSettings;
  /**
   * Fault switches as on the HTTPS stand-in; without a socket, `hang` fails the call as the
   * client's headers timeout would and `reset` as a reset connection would, at once.
   */
  faults: FaultSwitches;
  requests: RequestLogEntry[];
  writeAttempts: VcenterWriteAttempt[];
  /**
   * Called as each request arrives, before faults and the handler: a test expires sessions or
   * aborts its sync at a chosen request with it.
   */
  onRequest: ((entry: RequestLogEntry) => void) | undefined;
  /** Give this to hyper-http as `dispatcher`. */
  transport: InProcessTransport;
}

// A pushed stream: Readable.from's async generator costs several times more per answer.
function bodyStream(text: string | undefined): Readable {
  const stream = new Readable({ read() {} });
  if (text) stream.push(Buffer.from(text));
  stream.push(null);
  return stream;
}

function networkError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function lowerCaseKeys<T>(headers: Record<string, T> | null | undefined): Record<string, T> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Creates an {@link InProcessVcenter}. */
export function createInProcessVcenter(options: InProcessVcenterOptions = {}): InProcessVcenter {
  const { model, release, sessions, settings, writeAttempts, handle } = vcenterCore(
    options,
    Date.now,
  );
  const faults = new FaultSwitches();
  const requests: RequestLogEntry[] = [];

  async function answer(request: TransportRequest): Promise<TransportResponse> {
    if (request.signal?.aborted) throw networkError("UND_ERR_ABORTED", "Request aborted");
    const method = request.method.toUpperCase();
    const url = new URL(request.path, "https://vcenter.in-process");
    const entry: RequestLogEntry = {
      method,
      path: url.pathname,
      query: url.search.slice(1),
      status: 0,
      at: Date.now(),
    };
    requests.push(entry);
    vcenter.onRequest?.(entry);
    const fault = faults.take(method, entry.path);
    if (fault) entry.fault = fault.name;
    const action = fault?.action;
    if (action?.kind === "hang") throw networkError("UND_ERR_HEADERS_TIMEOUT", "Headers Timeout");
    if (action?.kind === "reset") throw networkError("ECONNRESET", "socket hang up");
    if (action?.kind === "delay") await sleep(action.ms);
    if (action?.kind === "flood") {
      throw new RangeError("a flood needs a socket to stream through: use the HTTPS stand-in");
    }
    const reply =
      (action && faultReply(action)) ??
      faultEditedReply(
        action,
        await handle({
          method,
          path: entry.path,
          query: url.searchParams,
          headers: lowerCaseKeys(request.headers),
          body: request.body ?? "",
        }),
      );
    entry.route = reply.route;
    entry.status = reply.status;
    return {
      statusCode: reply.status,
      statusText: reply.reason ?? "",
      headers: lowerCaseKeys(reply.headers),
      body: bodyStream(reply.body),
    };
  }

  const vcenter: InProcessVcenter = withSessionCounts(
    {
      url: "https://vcenter.in-process",
      model,
      release,
      settings,
      faults,
      requests,
      writeAttempts,
      onRequest: undefined,
      transport: { request: answer, close: async () => {} },
    },
    sessions,
  );
  return vcenter;
}
