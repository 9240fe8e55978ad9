import { setMaxListeners } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { StandinTls } from "../tls.ts";
import type { StandinHandler, StandinReply, StandinRequest } from "./reply.ts";

/** One request in flight, as a {@link StandinInterceptor} sees it. */
export interface StandinExchange {
  request: StandinRequest;
  /** The raw request and response, for an interceptor that answers on the socket itself. */
  req: IncomingMessage;
  res: ServerResponse;
  /** Aborted when the server closes: a pending delay or stream should end with it. */
  closed: AbortSignal;
}

/**
 * Wraps the handler on every request: `next` runs it. An interceptor may answer in its place,
 * change its answer, or answer on `res` itself (or not at all) and return undefined.
 * The testing entry plugs its fault switches, request log and worker queue in here.
 */
export type StandinInterceptor = (
  exchange: StandinExchange,
  next: () => Promise<StandinReply>,
) => Promise<StandinReply | undefined>;

/** Options of {@link startStandinServer}. */
export interface StandinServerOptions {
  tls: StandinTls;
  handle: StandinHandler;
  /** Listen address; default `127.0.0.1`. */
  host?: string;
  /** Listen port; default 0 (a free port). */
  port?: number;
  /** Delay before every answer, in milliseconds; default 0. */
  latencyMs?: number;
  intercept?: StandinInterceptor;
}

/** A running stand-in HTTPS server, independent of the API it imitates. */
export interface StandinServer {
  /** `https://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  /** Stop listening, drop every open connection (hung ones too) and cancel pending delays. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/** Start a stand-in HTTPS server: TLS, the handler behind the interceptor, and a latency. */
export async function startStandinServer(options: StandinServerOptions): Promise<StandinServer> {
  const { handle, intercept } = options;
  const latencyMs = options.latencyMs ?? 0;
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
    const url = new URL(req.url ?? "/", "https://standin.invalid");
    const request: StandinRequest = {
      method: (req.method ?? "GET").toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: await readBody(req),
    };
    if (latencyMs > 0 && !(await wait(latencyMs, lifetime.signal))) return;
    const next = async () => handle(request);
    const reply = intercept
      ? await intercept({ request, req, res, closed: lifetime.signal }, next)
      : await next();
    if (reply) send(res, reply, lifetime.signal);
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
    close: async () => {
      lifetime.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
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
export async function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
