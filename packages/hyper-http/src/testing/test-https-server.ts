import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { TestCert } from "./test-certificates.ts";

/** A real local HTTPS server that counts what reaches it. */
export interface TestHttpsServer {
  /** `https://127.0.0.1:PORT` */
  url: string;
  /** `https://localhost:PORT` */
  localhostUrl: string;
  port: number;
  /** Every request that arrived, in order. */
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  /** Highest number of requests in flight at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

/** Handler of a {@link TestHttpsServer}; may be async. */
export type TestHandler = (
  req: IncomingMessage & { bodyText: string },
  res: ServerResponse,
) => void | Promise<void>;

/** Starts an HTTPS server on a free port of 127.0.0.1. */
export async function startHttpsServer(
  cert: TestCert,
  handler: TestHandler,
): Promise<TestHttpsServer> {
  const requests: TestHttpsServer["requests"] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on("close", () => {
      inFlight -= 1;
    });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const bodyText = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: bodyText,
      });
      Promise.resolve(handler(Object.assign(req, { bodyText }), res)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  server.on("tlsClientError", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    localhostUrl: `https://localhost:${port}`,
    port,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  reason?: string,
): void {
  const text = JSON.stringify(body);
  const headers = {
    "content-type": "application/json;charset=UTF-8",
    "content-length": Buffer.byteLength(text),
  };
  if (reason === undefined) res.writeHead(status, headers);
  else res.writeHead(status, reason, headers);
  res.end(text);
}
