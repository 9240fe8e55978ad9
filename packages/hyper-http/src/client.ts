import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  createSemaphore,
  englishText,
  type Semaphore,
  type ServerText,
  serverText,
} from "@hyperlens/shared";
import type { Dispatcher } from "undici";
import { classifyNetworkError, type NetworkFailure } from "./classify-network-error.ts";
import { classifyStatus, extractServerMessage } from "./classify-status.ts";
import { HyperError, type HyperErrorDetails, type SourceName, textError } from "./errors.ts";
import { checkHttpsUrl } from "./https-only.ts";
import {
  type CallLabels,
  type HyperLogger,
  type HyperMetrics,
  noMetrics,
  silentLogger,
} from "./observability.ts";
import { collectRequestSecrets, redactPath, redactSecrets } from "./redact.ts";
import { backoffDelayMs, type RetryOptions, resolveRetryPolicy } from "./retry-policy.ts";
import { extractServerErrorType } from "./server-error-type.ts";
import { findTargetRefusal } from "./target-address.ts";
import { checkCaPem, createTlsAgent } from "./tls-agent.ts";
import { type AllowedWrite, checkReadOnly, type RequestPurpose } from "./write-guard.ts";

/** Time limits of one client; undici's own defaults are minutes, far too patient for a sync. */
export interface TimeoutOptions {
  /** TCP + TLS handshake (default 10 s). */
  connectMs?: number;
  /** From sending the request to the response headers (default 30 s; Proxmox delays 401s by ~3 s). */
  headersMs?: number;
  /** Longest silence while reading the body (default 30 s). */
  bodyMs?: number;
  /** Whole call, including queueing, retries and backoff (default 120 s). */
  deadlineMs?: number;
}

/** The process-wide cap shared by every client that does not bring its own (32 concurrent calls). */
export const globalSemaphore: Semaphore = createSemaphore(32);

/** Options of {@link createHyperClient}. */
export interface HyperClientOptions {
  /** The connection's id, put on every log line and metric. */
  connectionId: string;
  /** Which kind of server this is; named in every error message. */
  source: SourceName;
  /** `https://host:port`, optionally with a path prefix. Anything but https is refused at request time. */
  baseUrl: string;
  /** Verify the server certificate (default true). Off affects only this client. */
  verifyTls?: boolean;
  /** Extra CA certificate(s), PEM, trusted for this connection besides the public CAs. */
  caPem?: string | null;
  /**
   * Connect to loopback, link-local (169.254.0.0/16, fe80::/10) and unspecified addresses
   * (default false: refused at connect time, after resolving the name). Labs, demo and tests only.
   */
  allowLoopbackTargets?: boolean;
  /** The login/logout calls this source may send; everything else must be GET. */
  allowedWrites?: readonly AllowedWrite[];
  logger?: HyperLogger;
  metrics?: HyperMetrics;
  /**
   * Transport to use instead of the TLS agent built from `verifyTls`/`caPem`: the single place a
   * test substitutes a stand-in (MockAgent or an Agent of its own). Not closed by `close()`.
   */
  dispatcher?: Dispatcher;
  timeouts?: TimeoutOptions;
  retry?: RetryOptions;
  concurrency?: {
    /** Calls in flight to this connection at once (default 4). */
    perConnection?: number;
    /**
     * Calls in flight to one server node at once, on top of `perConnection`, for APIs where the
     * node a path names serves it (Proxmox's `/nodes/{node}/…`, docs/behaviour.md §3.7).
     * `nodeOf` names the node of a request path, or undefined when no single node serves it.
     */
    perNode?: { limit: number; nodeOf: (path: string) => string | undefined };
    /** Cap shared with other clients (default: the process-wide 32-permit {@link globalSemaphore}). */
    global?: Semaphore;
  };
  /** Largest response body accepted (default 32 MiB); larger answers fail as `malformed`. */
  maxBodyBytes?: number;
  /** Correlation id for log lines (e.g. the sync run id); a random one per client by default. */
  correlationId?: string;
}

/** One call through the door. */
export interface HyperRequest {
  method: string;
  /** Path below the base URL, starting with `/`, e.g. `/api2/json/nodes`. May carry a query string. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: string;
  /** `login`/`logout` for the declared session calls; default `read`. */
  purpose?: RequestPurpose;
  /**
   * Retry 5xx answers (default true). Turn off where a 5xx is an expected answer, e.g. Proxmox's
   * guest-agent 500s ("QEMU guest agent is not running" costs a 3 s ping each time); or decide
   * per answer where only some are (vCenter's VM list: its cap refusal is, a 503 is not).
   */
  retryServerErrors?: boolean | ((answer: ServerErrorAnswer) => boolean);
  /** Overrides the client's correlation id for this call. */
  correlationId?: string;
}

/** What a per-answer {@link HyperRequest.retryServerErrors} decides on. */
export interface ServerErrorAnswer {
  status: number;
  /** The server's machine-readable error kind, upper-case, when its body names one. */
  serverErrorType?: string;
}

/** Whether a transient error answer to a read may be tried again, by the request's rule. */
function mayRetryAnswer(rule: HyperRequest["retryServerErrors"], answer: ServerErrorAnswer) {
  return typeof rule === "function" ? rule(answer) : rule !== false;
}

/** A successful (2xx) answer, fully read. */
export interface HyperResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  text(): string;
  /** Parses the body as JSON; throws a `malformed` {@link HyperError} if it is not. */
  json(): unknown;
}

/** A client bound to one connection. */
export interface HyperClient {
  readonly connectionId: string;
  readonly source: SourceName;
  /** Sends one request; resolves with a 2xx answer or rejects with a {@link HyperError}. */
  request(request: HyperRequest): Promise<HyperResponse>;
  /** Calls in flight at once: per connection, and per node when the client limits nodes. */
  readonly limits: { perConnection: number; perNode: number | undefined };
  /** Closes the connection's own agent (an injected dispatcher is left alone). */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 32 * 1024 * 1024;
const ERROR_BODY_LIMIT = 64 * 1024;

class DeadlineExceeded extends Error {}

interface Attempt {
  response?: {
    status: number;
    statusText: string;
    headers: HyperResponse["headers"];
    body: string;
  };
  network?: NetworkFailure;
  failure?: HyperError;
}

/**
 * Creates the client for one connection. All hypervisor HTTP goes through here: https only,
 * certificate checks, timeouts, bounded retries, read-only guard, error classes, logs and metrics.
 *
 * Retry rules: network failures and 5xx/595 answers are retried with jittered backoff up to
 * `retry.attempts`; 4xx never. Logins and logouts are retried only when the failure happened
 * before anything reached the server (DNS hiccup, connection refused, connect timeout), so a
 * password is never sent twice by us — repeated failed logins can lock an account.
 * Connection refused counts as unreachable but is retried, since it is what a server restarting
 * its API daemon (pveproxy, vpxd) looks like for a few seconds.
 */
export function createHyperClient(options: HyperClientOptions): HyperClient {
  const source = options.source;
  const verifyTls = options.verifyTls ?? true;
  const timeouts = {
    connectMs: options.timeouts?.connectMs ?? 10_000,
    headersMs: options.timeouts?.headersMs ?? 30_000,
    bodyMs: options.timeouts?.bodyMs ?? 30_000,
    deadlineMs: options.timeouts?.deadlineMs ?? 120_000,
  };
  const retry = resolveRetryPolicy(options.retry);
  const logger = options.logger ?? silentLogger;
  const metrics = options.metrics ?? noMetrics;
  const allowedWrites = options.allowedWrites ?? [];
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const perConnection = createSemaphore(options.concurrency?.perConnection ?? 4);
  const perNode = nodeSemaphores(options.concurrency?.perNode);
  const global = options.concurrency?.global ?? globalSemaphore;
  const clientCorrelationId = options.correlationId ?? randomUUID();
  const ownsDispatcher = options.dispatcher === undefined;
  let dispatcher: Dispatcher | undefined = options.dispatcher;

  const fail = (message: string, details: Omit<HyperErrorDetails, "source">): HyperError =>
    new HyperError(message, { ...details, source });
  const failWith = (
    text: ServerText,
    details: Omit<HyperErrorDetails, "source" | "text">,
  ): HyperError => textError(text, { ...details, source });

  // The settings do not change during a client's life: check them once, not per request.
  let checkedConfig: { problem: string | null } | undefined;
  function configProblem(): string | null {
    checkedConfig ??= {
      problem:
        checkHttpsUrl(options.baseUrl) ??
        (verifyTls && options.caPem ? checkCaPem(options.caPem) : null),
    };
    return checkedConfig.problem;
  }

  // Parsed once: a client's base address does not change (and is only used once it was checked).
  let parsedBase: { origin: string; pathPrefix: string; hostPort: string } | undefined;
  function base() {
    if (!parsedBase) {
      const url = new URL(options.baseUrl);
      parsedBase = {
        origin: url.origin,
        pathPrefix: url.pathname.replace(/\/+$/, ""),
        hostPort: url.port ? `${url.hostname}:${url.port}` : url.hostname,
      };
    }
    return parsedBase;
  }

  function getDispatcher(): Dispatcher {
    dispatcher ??= createTlsAgent({
      verifyTls,
      caPem: options.caPem,
      targets: { allowLoopbackTargets: options.allowLoopbackTargets ?? false },
      connectTimeoutMs: timeouts.connectMs,
      headersTimeoutMs: timeouts.headersMs,
      bodyTimeoutMs: timeouts.bodyMs,
    });
    return dispatcher;
  }

  async function request(req: HyperRequest): Promise<HyperResponse> {
    const method = req.method.toUpperCase();
    const purpose = req.purpose ?? "read";
    const correlationId = req.correlationId ?? clientCorrelationId;
    const pathWithQuery = withQuery(req.path, req.query);
    const shownPath = redactPath(pathWithQuery);
    const headers = buildHeaders(req.headers);
    // TRAP: docs/behaviour.md §1 — a server echoing the request could put a token or password into our message.
    // Collected only when a failure has a message to scrub.
    let secrets: string[] | undefined;
    const scrub = (text: string) => {
      secrets ??= collectRequestSecrets(headers, purpose === "read" ? undefined : req.body);
      return redactSecrets(text, secrets);
    };
    const scrubText = (text: ServerText): ServerText => ({
      code: text.code,
      params: Object.fromEntries(
        Object.entries(text.params).map(([name, value]) => [
          name,
          typeof value === "string" ? scrub(value) : value,
        ]),
      ),
    });
    const logBase = () => ({ source, connectionId: options.connectionId, correlationId, method });

    // TRAP: docs/behaviour.md §2 — checked per request, so a row that got an http:// address some other way is still refused.
    const refusal =
      configProblem() ??
      checkPath(req.path) ??
      checkReadOnly(method, req.path, purpose, allowedWrites);
    if (refusal) {
      logger.warn({
        ...logBase(),
        msg: "hypervisor call refused",
        path: shownPath,
        reason: refusal,
      });
      metrics.count("hyper_http_requests_total", labels(method, "refused"));
      throw failWith(serverText("hyperRefusedToCall", { source, reason: refusal }), {
        errorClass: "config",
        method,
        path: shownPath,
        attempts: 0,
      });
    }

    const { origin, pathPrefix } = base();
    const fullPath = `${pathPrefix}${pathWithQuery}`;
    const controller = new AbortController();
    const deadline = setTimeout(
      () => controller.abort(new DeadlineExceeded()),
      timeouts.deadlineMs,
    );
    const signal = controller.signal;

    try {
      for (let attempt = 1; ; attempt++) {
        const outcome = await attemptOnce(method, origin, fullPath, headers, req.body, signal);
        const isLast = attempt >= retry.attempts;
        if (outcome.response) {
          const { status } = outcome.response;
          logCall(attempt, status, undefined, outcome);
          if (status >= 200 && status < 300) {
            return makeResponse(outcome.response, method, shownPath, attempt);
          }
          const verdict = classifyStatus(status);
          const serverErrorType = extractServerErrorType(outcome.response.body);
          const mayRetry =
            verdict.isTransient &&
            purpose === "read" &&
            mayRetryAnswer(req.retryServerErrors, { status, serverErrorType });
          if (mayRetry && !isLast && (await backoff(attempt, signal))) continue;
          const serverMessage = extractServerMessage(outcome.response, source);
          const text = scrubText(
            statusMessage(status, serverMessage, method, shownPath, attempt, outcome),
          );
          throw fail(scrub(englishText(text)), {
            text,
            errorClass: verdict.errorClass,
            status,
            ...(serverMessage === undefined ? {} : { serverMessage: scrub(serverMessage) }),
            ...(serverErrorType === undefined ? {} : { serverErrorType }),
            method,
            path: shownPath,
            attempts: attempt,
          });
        }
        if (outcome.network) {
          const network = outcome.network;
          logCall(attempt, undefined, network.errorClass, outcome);
          const mayRetry =
            network.isTransient && (purpose === "read" || network.isBeforeSend) && !isLast;
          if (mayRetry && (await backoff(attempt, signal))) continue;
          throw networkError(network, method, shownPath, attempt);
        }
        const failure = outcome.failure ?? unexpected(method, shownPath, attempt, undefined);
        logCall(attempt, failure.status, failure.errorClass, outcome);
        throw failure;
      }
    } finally {
      clearTimeout(deadline);
    }

    function logCall(
      attempt: number,
      status: number | undefined,
      errorClass: string | undefined,
      outcome: Attempt & { durationMs?: number },
    ) {
      const durationMs = outcome.durationMs ?? 0;
      const outcomeLabel = status === undefined ? (errorClass ?? "error") : String(status);
      const isSuccess = status !== undefined && status < 400 && !errorClass;
      const entry = () => ({
        ...logBase(),
        msg: "hypervisor call",
        path: shownPath,
        status,
        durationMs,
        attempt,
        ...(errorClass ? { errorClass } : {}),
        ...(outcome.network?.code ? { code: outcome.network.code } : {}),
      });
      // A successful call is a debug line: nothing is built for a logger that has no debug.
      if (!isSuccess) logger.warn(entry());
      else if (logger.debug) logger.debug(entry());
      const callLabels = labels(method, outcomeLabel);
      metrics.count("hyper_http_requests_total", callLabels);
      metrics.observe("hyper_http_request_duration_seconds", durationMs / 1000, callLabels);
    }
  }

  async function attemptOnce(
    method: string,
    origin: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ): Promise<Attempt & { durationMs: number }> {
    let releaseGlobal: (() => void) | undefined;
    let releaseOwn: (() => void) | undefined;
    let releaseNode: (() => void) | undefined;
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      // Narrowest permit first, then the wider ones: a busy node queues without hogging the
      // connection's slots, and a busy connection without hogging global ones.
      releaseNode = await perNode(path)?.acquire(signal);
      releaseOwn = await perConnection.acquire(signal);
      releaseGlobal = await global.acquire(signal);
      const answer = await getDispatcher().request({
        origin,
        path,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body ?? null,
        signal,
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
      });
      const ok = answer.statusCode >= 200 && answer.statusCode < 300;
      const limit = ok ? maxBodyBytes : Math.min(maxBodyBytes, ERROR_BODY_LIMIT);
      const read = await readCapped(answer.body, limit, answer.headers["content-length"]);
      if (read === null && ok) {
        return {
          failure: failWith(
            serverText("hyperAnswerTooLarge", {
              source,
              size: formatBytes(maxBodyBytes),
              call: `${method} ${redactPath(path)}`,
            }),
            { errorClass: "malformed", status: answer.statusCode, method, path: redactPath(path) },
          ),
          durationMs: elapsed(),
        };
      }
      return {
        response: {
          status: answer.statusCode,
          statusText: answer.statusText ?? "",
          headers: answer.headers,
          body: read ?? "",
        },
        durationMs: elapsed(),
      };
    } catch (error) {
      if (signal.aborted && signal.reason instanceof DeadlineExceeded) {
        const deadlineReason = serverText("netDeadline", {
          hostPort: hostPort(),
          seconds: Math.round(timeouts.deadlineMs / 1000),
        });
        return {
          network: {
            errorClass: "unreachable",
            reason: englishText(deadlineReason),
            reasonText: deadlineReason,
            code: "DEADLINE",
            isTransient: false,
            isBeforeSend: false,
          },
          durationMs: elapsed(),
        };
      }
      const refusal = findTargetRefusal(error);
      if (refusal) {
        const shown = redactPath(path);
        return {
          failure: failWith(
            serverText("hyperRefusedToConnect", { source, reason: refusal.message }),
            {
              errorClass: "config",
              method,
              path: shown,
              attempts: 1,
              code: refusal.code,
            },
          ),
          durationMs: elapsed(),
        };
      }
      const network = classifyNetworkError(error, hostPort());
      if (network) return { network, durationMs: elapsed() };
      return { failure: unexpected(method, redactPath(path), 1, error), durationMs: elapsed() };
    } finally {
      releaseGlobal?.();
      releaseOwn?.();
      releaseNode?.();
    }
  }

  function hostPort(): string {
    return base().hostPort;
  }

  function labels(method: string, outcome: string): CallLabels {
    return { source, connectionId: options.connectionId, method, outcome };
  }

  async function backoff(failedAttempt: number, signal: AbortSignal): Promise<boolean> {
    try {
      await sleep(backoffDelayMs(retry, failedAttempt), undefined, { signal });
      return true;
    } catch {
      return false;
    }
  }

  function networkError(
    network: NetworkFailure,
    method: string,
    path: string,
    attempts: number,
  ): HyperError {
    const text =
      network.errorClass === "tls"
        ? serverText("hyperTlsRejected", {
            source,
            reason: network.reasonText ?? network.reason,
            attempts,
            hint: network.hintText ?? network.hint ?? "check the certificate",
          })
        : serverText("hyperUnreachable", {
            source,
            reason: network.reasonText ?? network.reason,
            attempts,
          });
    return failWith(text, {
      errorClass: network.errorClass,
      ...(network.errorClass === "tls" ? { tlsReason: network.reason } : {}),
      ...(network.hint ? { hint: network.hint } : {}),
      ...(network.code ? { code: network.code } : {}),
      method,
      path,
      attempts,
    });
  }

  function statusMessage(
    status: number,
    serverMessage: string | undefined,
    method: string,
    path: string,
    attempts: number,
    outcome: Attempt,
  ): ServerText {
    // The server's own words stay as it sent them inside our frame (docs/behaviour.md §11.4).
    const http = `HTTP ${status}${serverMessage ? `: ${serverMessage}` : ""}`;
    const call = `${method} ${path}`;
    switch (classifyStatus(status).errorClass) {
      case "auth":
        return serverText("hyperLoginRefused", { source, http });
      case "permission":
        return serverText("hyperCallForbidden", { source, call, http });
      case "not_found":
        return serverText("hyperCallNotOffered", { source, call, http });
      case "config": {
        const location = outcome.response?.headers.location;
        const target = typeof location === "string" ? stripQuery(location) : "none";
        return serverText("hyperRedirectRefused", { source, call, target, http });
      }
      case "transient":
        return serverText("hyperServerFailing", { source, call, http, attempts });
      default:
        return serverText("hyperCallRejected", { source, call, http });
    }
  }

  function makeResponse(
    answer: NonNullable<Attempt["response"]>,
    method: string,
    path: string,
    attempts: number,
  ): HyperResponse {
    return {
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers,
      text: () => answer.body,
      json: () => {
        try {
          return JSON.parse(answer.body) as unknown;
        } catch (error) {
          throw failWith(notJsonText(source, `${method} ${path}`, answer), {
            errorClass: "malformed",
            status: answer.status,
            method,
            path,
            attempts,
            cause: error,
          });
        }
      },
    };
  }

  // Mostly undici refusing our own input (e.g. a secret with a line break in a header), hence
  // "config". Only the error's code is shown: its message might quote a header value.
  function unexpected(method: string, path: string, attempts: number, cause: unknown): HyperError {
    const code = (cause as { code?: unknown } | undefined)?.code;
    const text = serverText("hyperSendFailed", {
      source,
      call: `${method} ${path}`,
      code: typeof code === "string" ? code : "none",
    });
    return failWith(text, {
      errorClass: "config",
      method,
      path,
      attempts,
      cause,
    });
  }

  return {
    connectionId: options.connectionId,
    source,
    request,
    limits: { perConnection: perConnection.limit, perNode: options.concurrency?.perNode?.limit },
    async close() {
      if (ownsDispatcher && dispatcher) await dispatcher.close();
      dispatcher = undefined;
    },
  };
}

/** One semaphore per node, made on first use; no limit when the client limits no nodes. */
function nodeSemaphores(
  perNode: { limit: number; nodeOf: (path: string) => string | undefined } | undefined,
): (path: string) => Semaphore | undefined {
  if (!perNode) return () => undefined;
  const byNode = new Map<string, Semaphore>();
  const limit = createSemaphore(perNode.limit).limit;
  return (path) => {
    const node = perNode.nodeOf(path);
    if (node === undefined) return undefined;
    let semaphore = byNode.get(node);
    if (!semaphore) {
      semaphore = createSemaphore(limit);
      byNode.set(node, semaphore);
    }
    return semaphore;
  };
}

function buildHeaders(given: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = { "user-agent": "Hyperlens", accept: "application/json" };
  for (const [name, value] of Object.entries(given ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

function withQuery(path: string, query: HyperRequest["query"]): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const text = params.toString();
  if (text === "") return path;
  return `${path}${path.includes("?") ? "&" : "?"}${text}`;
}

function checkPath(path: string): string | null {
  // "//evil.example/x" would be read as another host by URL resolution.
  if (!path.startsWith("/") || path.startsWith("//")) {
    return `the path ${JSON.stringify(path.slice(0, 80))} must start with a single /`;
  }
  return null;
}

function stripQuery(location: string): string {
  return location.split("?")[0] ?? location;
}

/** Reads a body up to `limit` bytes; returns null (and stops the transfer) when it is larger. */
async function readCapped(
  body: Dispatcher.ResponseData["body"],
  limit: number,
  contentLength: string | string[] | undefined,
): Promise<string | null> {
  const declared = typeof contentLength === "string" ? Number(contentLength) : Number.NaN;
  // Stopping a transfer early makes the stream emit an abort error nobody else listens for.
  const stop = () => {
    body.on("error", () => {});
    body.destroy();
  };
  if (Number.isFinite(declared) && declared > limit) {
    stop();
    return null;
  }
  // Declared and within the limit: undici holds the server to its Content-Length, so the body
  // is read in one go, without a promise per chunk.
  if (Number.isFinite(declared)) return body.text();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    // TRAP: docs/behaviour.md §2 — an unbounded read lets a broken or hostile server exhaust our memory.
    if (total > limit) {
      stop();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Says what arrived instead of JSON: nothing, an HTML page (a proxy or login page), or broken JSON. */
function notJsonText(
  source: SourceName,
  call: string,
  answer: { status: number; headers: HyperResponse["headers"]; body: string },
): ServerText {
  const http = `HTTP ${answer.status}`;
  if (answer.body.trim() === "") return serverText("hyperAnswerEmpty", { source, call, http });
  const contentType = String(answer.headers["content-type"] ?? "");
  const answered = { source, call, http, length: answer.body.length };
  if (/html/i.test(contentType) || /^\s*</.test(answer.body)) {
    return serverText("hyperAnswerHtml", answered);
  }
  return serverText("hyperAnswerNotJson", answered);
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}
