import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpFixture } from "@hyperlens/hyper-http/testing";
import { startHttpsServer, type TestHttpsServer } from "@hyperlens/hyper-http/testing";
import { generate } from "selfsigned";
import { readFixtureText, readHttpFixture } from "./fixtures.ts";

/** What one route answers: a JSON fixture, a raw `.http` fixture, or a function of the request. */
export type FakeAnswer =
  | { fixture: string }
  | { http: string }
  | ((req: IncomingMessage & { bodyText: string }) => FakeAnswer | HttpFixture);

/** A local HTTPS server that plays recorded Proxmox answers and records what it was sent. */
export interface FakePveServer {
  url: string;
  /** Self-signed certificate, to pass as the connection's CA PEM. */
  caPem: string;
  requests: TestHttpsServer["requests"];
  /** Replaces or adds a route, keyed "METHOD /path" (path without query). */
  route(key: string, answer: FakeAnswer): void;
  close(): Promise<void>;
}

/** Starts a {@link FakePveServer} on 127.0.0.1 with the given routes. */
export async function startFakePve(routes: Record<string, FakeAnswer>): Promise<FakePveServer> {
  const table = new Map(Object.entries(routes));
  const cert = await generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
  });
  const server = await startHttpsServer({ key: cert.private, cert: cert.cert }, (req, res) => {
    const key = `${req.method} ${(req.url ?? "").split("?")[0]}`;
    const answer = table.get(key) ?? { http: "errors/unknown-path.GET.501.http" };
    send(res, resolve(answer, req));
  });
  return {
    url: server.url,
    caPem: cert.cert,
    requests: server.requests,
    route: (key, answer) => table.set(key, answer),
    close: () => server.close(),
  };
}

function resolve(answer: FakeAnswer, req: IncomingMessage & { bodyText: string }): HttpFixture {
  if (typeof answer === "function") {
    const next = answer(req);
    return "status" in next ? next : resolve(next, req);
  }
  if ("fixture" in answer) {
    return {
      status: 200,
      reason: "OK",
      headers: { "content-type": "application/json;charset=UTF-8" },
      body: readFixtureText(answer.fixture),
    };
  }
  return readHttpFixture(answer.http);
}

function send(res: ServerResponse, answer: HttpFixture): void {
  const headers: Record<string, string> = {
    ...answer.headers,
    "content-length": String(Buffer.byteLength(answer.body)),
  };
  delete headers.connection;
  res.writeHead(answer.status, answer.reason, headers);
  res.end(answer.body);
}
