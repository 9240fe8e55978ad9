import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { generate } from "selfsigned";
import { type HttpFixture, readFixtureText, readHttpFixture } from "./fixtures.ts";

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
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
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
  const requests: FakePveServer["requests"] = [];
  const server = createServer({ key: cert.private, cert: cert.cert }, (req, res) => {
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
      const key = `${req.method} ${(req.url ?? "").split("?")[0]}`;
      const answer = table.get(key) ?? { http: "errors/unknown-path.GET.501.http" };
      send(res, resolve(answer, Object.assign(req, { bodyText })));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caPem: cert.cert,
    requests,
    route: (key, answer) => table.set(key, answer),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
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
