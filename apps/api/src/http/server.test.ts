import { once } from "node:events";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import { BUILD_INFO } from "../version.ts";
import { REQUEST_LIMITS } from "./limits.ts";

describe("the HTTP server", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());

  it("answers /healthz and /readyz", async () => {
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  it("names the release it runs in /healthz, as package.json has it", async () => {
    const { version } = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, "../../../../package.json"), "utf8"),
    );
    const health = await fetch(`${app.url}/healthz`);
    expect(await health.json()).toEqual({ status: "ok", version, revision: BUILD_INFO.revision });
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("refuses a body over the cap before reading it", async () => {
    const res = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ viewer { username } } #${"x".repeat(REQUEST_LIMITS.maxBodyBytes)}`,
      }),
    });
    expect(res.status).toBe(413);
  });

  it("refuses batched requests", async () => {
    const res = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ query: "{ isSetupRequired }" }, { query: "{ isSetupRequired }" }]),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
  });

  it("refuses a cross-site simple request (CSRF prevention)", async () => {
    const res = await fetch(
      `${app.url}/graphql?query=${encodeURIComponent("{ isSetupRequired }")}`,
    );
    expect(res.status).toBe(403);
  });

  it("reflects no foreign origin (CORS closed)", async () => {
    const res = await fetch(`${app.url}/graphql`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("refuses too many aliases", async () => {
    const aliases = Array.from(
      { length: REQUEST_LIMITS.maxAliases + 1 },
      (_, i) => `a${i}: isSetupRequired`,
    );
    const res = await app.graphql(`{ ${aliases.join(" ")} }`);
    expect(res.body.errors?.[0]?.message).toMatch(/alias/i);
  });

  it("refuses documents with too many tokens", async () => {
    const fields = Array.from({ length: REQUEST_LIMITS.maxTokens }, () => "isSetupRequired").join(
      " ",
    );
    const res = await app.graphql(`{ ${fields} }`);
    expect(res.body.errors?.[0]?.message).toMatch(/token/i);
  });

  it("refuses a WebSocket from a foreign origin", async () => {
    const url = `${app.url.replace("http", "ws")}/graphql`;
    const status = await new Promise<number | string>((resolve) => {
      const ws = new WebSocket(url, "graphql-transport-ws", {
        headers: { origin: "https://evil.example" },
      });
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => {
        ws.close();
        resolve("open");
      });
      ws.on("error", () => {});
    });
    expect(status).toBe(401);
  });

  it("keeps an idle keep-alive connection through seconds of a busy event loop", async () => {
    const { hostname, port } = new URL(app.url);
    const socket = connect(Number(port), hostname);
    await once(socket, "connect");
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
    });
    const closed = once(socket, "close");
    const answers = () => received.match(/^HTTP\/1\.1 200/gm)?.length ?? 0;
    const request = `GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`;
    socket.write(request);
    await vi.waitFor(() => expect(answers()).toBe(1));
    // The next request is on the wire while the loop is held past Node's default keep-alive (5 s,
    // and a second of grace), as the embedded database holds it at the end of a big sync.
    socket.write(request);
    const until = Date.now() + 7_000;
    while (Date.now() < until) {
      // busy, as a long synchronous query is
    }
    await Promise.race([closed, vi.waitFor(() => expect(answers()).toBe(2), { timeout: 5_000 })]);
    expect(answers(), "the second request was answered, not dropped").toBe(2);
    socket.destroy();
  }, 20_000);

  it("masks unexpected errors with a code and no stack, and /readyz fails without a database", async () => {
    await app.services.db.close();
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(503);
    const res = await app.graphql("{ isSetupRequired }");
    expect(res.body.errors?.[0]).toMatchObject({
      message: "Unexpected error.",
      extensions: { code: "INTERNAL_SERVER_ERROR" },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/\bat .*\.ts:\d+/);
  });
});

describe("the HTTP server in production", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ isProduction: true });
  });
  afterAll(async () => app?.close());

  // docs/behaviour.md §11.3: GraphiQL is the web build's page (http/graphiql-page.test.ts).
  it("serves no Yoga page that loads code from another origin on /graphql", async () => {
    const res = await fetch(`${app.url}/graphql`, {
      headers: { accept: "text/html" },
      redirect: "manual",
    });
    expect(await res.text()).not.toMatch(/<script|https?:\/\//i);
  });
});

describe("serving the web app", () => {
  it("serves index.html for app routes and never a file outside the build", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const { createServer } = await import("node:http");
    const { createStaticHandler } = await import("./static-files.ts");
    const dir = mkdtempSync(path.join(tmpdir(), "hl-web-"));
    writeFileSync(path.join(dir, "index.html"), "<h1>app</h1>");
    const handler = createStaticHandler(dir);
    if (!handler) throw new Error("no handler");
    const server = createServer(handler).listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const port = (server.address() as { port: number }).port;
    const get = (p: string) =>
      new Promise<string>((resolve) => {
        import("node:http").then(({ get: httpGet }) =>
          httpGet({ host: "127.0.0.1", port, path: p }, (res) => {
            let body = "";
            res.on("data", (c) => (body += c));
            res.on("end", () => resolve(body));
          }),
        );
      });
    expect(await get("/servers")).toBe("<h1>app</h1>");
    expect(await get("/../../../../etc/passwd")).toBe("<h1>app</h1>");
    expect(await get("/%2e%2e/%2e%2e/etc/passwd")).toBe("<h1>app</h1>");
    server.close();
  });
});
