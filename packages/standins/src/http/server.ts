import { setMaxListeners } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createSemaphore, type Semaphore } from "@hyperlens/shared";
import type { StandinTls } from "../tls.ts";
import { type FaultAction, type FaultSwitches, faultEditedReply } from "./faults.ts";
import { sendFlood } from "./flood.ts";
import type { StandinHandler, StandinReply } from "./reply.ts";
import { type RequestLogEntry, StandinStats } from "./request-log.ts";

/** Options of {@link startStandinServer}. */
export interface StandinServerOptions {
  tls: StandinTls;
  handle: StandinHandler;
  faults: FaultSwitches;
  /** Listen address; default `127.0.0.1`. */
  host?: string;
  /** Listen port; default 0 (a free port). */
  port?: number;
  /** Requests handled at once; more wait in a queue. Default: unlimited. */
  maxWorkers?: number;
  /** Clock for the request log; default `Date.now`. */
  now?: () => number;
}

/** A running stand-in HTTPS server, independent of the API it imitates. */
export interface StandinServer {
  /** `https://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  /** Every request received, in arrival order (a live array: clear it with `length = 0`). */
  requests: RequestLogEntry[];
  stats: StandinStats;
  /**
   * The worker queue, standing in for a server's fixed worker processes so a benchmark sees the
   * queueing a real pveproxy imposes (peak concurrency of handled requests in `peakInUse`).
   */
  workers: Semaphore;
  /** Stop listening, drop every open connection (hung ones too) and cancel pending delays. */
  close(): Promise<void>;
}

const HTML_ERROR_PAGE =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
const MAX_BODY_BYTES = 1024 * 1024;

/** Start a stand-in HTTPS server: TLS, request log, stats, worker queue, latency and faults. */
export async function startStandinServer(options: StandinServerOptions): Promise<StandinServer> {
  const { faults, handle } = options;
  const now = options.now ?? Date.now;
  const requests: RequestLogEntry[] = [];
  const stats = new StandinStats();
  const workers = createSemaphore(options.maxWorkers ?? Number.POSITIVE_INFINITY);
  const lifetime = new AbortController();
  // Every pending delay listens on this signal; hundreds at once are expected under load.
  setMaxListeners(0, lifetime.signal);

  const server = createServer({ key: options.tls.keyPem, cert: options.tls.certPem });
  // Handlers set Date themselves so recorded bytes (Date, Expires) can match a real server.
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    res.sendDate = false;
    void serve(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, "Stand-in failure", { "Content-Type": "text/plain" });
        res.end(error instanceof Error ? error.message : String(error));
      }
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const url = new URL(req.url ?? "/", "https://standin.invalid");
    const entry: RequestLogEntry = {
      method,
      path: url.pathname,
      query: url.search.slice(1),
      status: 0,
      at: now(),
    };
    requests.push(entry);
    stats.begin(method, entry.path);
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      stats.end(entry.route);
    };
    res.on("close", finish);

    const body = await readBody(req);
    const release = await workers.acquire();
    try {
      const fault = faults.take(method, entry.path);
      if (fault) entry.fault = fault.name;
      const delayMs = faults.latencyMs + (fault?.action.kind === "delay" ? fault.action.ms : 0);
      if (delayMs > 0 && !(await wait(delayMs, lifetime.signal))) return;
      if (res.destroyed) return;
      if (fault?.action.kind === "flood") {
        entry.status = fault.action.status;
        finish();
        await sendFlood(res, fault.action, entry, lifetime.signal);
        return;
      }
      const early = fault ? answerFault(fault.action, req) : undefined;
      if (early === "unanswered") return;
      const reply = faultEditedReply(
        fault?.action,
        early ??
          (await handle({
            method,
            path: entry.path,
            query: url.searchParams,
            headers: req.headers,
            body,
          })),
      );
      entry.route = reply.route;
      entry.status = reply.status;
      // Counted before the bytes leave: a client may see the answer before "close" fires here.
      finish();
      send(res, reply, lifetime.signal);
    } finally {
      release();
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";

  return {
    url: `https://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    requests,
    stats,
    workers,
    close: async () => {
      lifetime.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A fault that replaces the answer, or "unanswered" when nothing must be sent. */
function answerFault(
  action: FaultAction,
  req: IncomingMessage,
): StandinReply | "unanswered" | undefined {
  switch (action.kind) {
    case "status":
      return {
        status: action.status,
        reason: action.reason,
        headers: action.headers,
        body: action.body ?? "",
      };
    case "html":
      return {
        status: action.status,
        headers: { "Content-Type": "text/html" },
        body: HTML_ERROR_PAGE,
      };
    case "hang":
      return "unanswered";
    case "reset":
      try {
        req.socket.resetAndDestroy();
      } catch {
        // A TLS socket may refuse a TCP reset; destroying it still drops the connection unanswered.
        req.socket.destroy();
      }
      return "unanswered";
    case "delay":
    case "truncate":
    case "rewrite":
    case "flood":
      return undefined;
  }
}

function send(res: ServerResponse, reply: StandinReply, signal: AbortSignal): void {
  if (res.destroyed || signal.aborted) return;
  const body = reply.body ?? "";
  const headers: Record<string, string | number | string[]> = { ...reply.headers };
  if (body.length > 0) headers["Content-Length"] = Buffer.byteLength(body);
  else if (String(headers.Connection).toLowerCase() === "close") {
    // Proxmox's bare 401/595 answers have neither Content-Length nor chunking: the close ends them.
    res.removeHeader("Transfer-Encoding");
  } else headers["Content-Length"] = 0;
  if (reply.reason === undefined) res.writeHead(reply.status, headers);
  else res.writeHead(reply.status, reply.reason, headers);
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) break;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Sleep that ends early (returning false) when the server closes. */
async function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
