// With HYPERLENS_PUBLIC_URL set, requests naming another Host are refused (421), over real HTTP and
// WebSocket; the probes and /metrics answer whatever the Host, for health checks and Prometheus.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { ConfigError, loadConfig } from "../config.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const PUBLIC_URL = "https://hyperlens.example.com";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    ...loadConfig({ NODE_ENV: "test", HYPERLENS_PUBLIC_URL: PUBLIC_URL }),
    host: "127.0.0.1",
    port: 0,
  });
});
afterAll(async () => app?.close());

/** A request to the test server with the given Host header (fetch cannot set it). */
function send(path: string, host: string, method = "GET", body?: string) {
  const { hostname, port } = new URL(app.url);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        path,
        method,
        headers: {
          host,
          "content-type": "application/json",
          ...(body ? { "content-length": Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const QUERY = JSON.stringify({ query: "{ isSetupRequired }" });

describe("HYPERLENS_PUBLIC_URL", () => {
  it("refuses a GraphQL request naming another host with 421 and a code", async () => {
    const res = await send("/graphql", "rebound.attacker.example", "POST", QUERY);
    expect(res.status).toBe(421);
    const body = JSON.parse(res.text) as {
      errors: { message: string; extensions: { code: string } }[];
    };
    expect(body.errors[0]?.extensions.code).toBe("BAD_REQUEST");
    expect(body.errors[0]?.message).toContain("HYPERLENS_PUBLIC_URL");
    expect(res.text).not.toContain("isSetupRequired");
  });

  it.each(["hyperlens.example.com", "HyperLens.Example.COM", "hyperlens.example.com:443"])(
    "answers a request naming its own host as %s",
    async (host) => {
      const res = await send("/graphql", host, "POST", QUERY);
      expect([res.status, res.text]).toEqual([200, '{"data":{"isSetupRequired":true}}']);
    },
  );

  it.each([
    "hyperlens.example.com:8443",
    "hyperlens.example.com.attacker.example",
    "attacker.example@hyperlens.example.com",
    "127.0.0.1",
  ])("refuses the look-alike host %s", async (host) => {
    expect((await send("/graphql", host, "POST", QUERY)).status).toBe(421);
  });

  it("refuses any other path (the web app) naming another host", async () => {
    expect((await send("/", "rebound.attacker.example")).status).toBe(421);
  });

  it.each(["/healthz", "/readyz", "/metrics"])("answers %s whatever the Host", async (path) => {
    expect((await send(path, "api1:4000")).status).toBe(200);
  });

  it("refuses a WebSocket upgrade naming another host", async () => {
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(
        `${app.url.replace("http", "ws")}/graphql`,
        "graphql-transport-ws",
        {
          headers: { host: "rebound.attacker.example" },
        },
      );
      socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      socket.on("open", () => {
        socket.close();
        resolve(101);
      });
      socket.on("error", () => resolve(-1));
    });
    expect(status).toBe(421);
  });

  it("is validated at start-up: an http(s) address without a path", () => {
    expect(loadConfig({ HYPERLENS_PUBLIC_URL: "https://Hyperlens.Example.com/" }).publicUrl).toBe(
      "https://hyperlens.example.com",
    );
    expect(loadConfig({}).publicUrl).toBeUndefined();
    for (const wrong of [
      "hyperlens.example.com",
      "ftp://h.example",
      "https://h.example/app",
      "https://u:p@h.example",
    ]) {
      expect(() => loadConfig({ HYPERLENS_PUBLIC_URL: wrong }), wrong).toThrow(ConfigError);
      expect(() => loadConfig({ HYPERLENS_PUBLIC_URL: wrong })).toThrow(
        /HYPERLENS_PUBLIC_URL: must be the address users open/,
      );
    }
  });
});

describe("without HYPERLENS_PUBLIC_URL", () => {
  let open: TestApp;
  beforeAll(async () => {
    open = await startTestApp();
  });
  afterAll(async () => open?.close());

  it("answers whatever the Host (development, and installs that have not set it)", async () => {
    const res = await fetch(`${open.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: QUERY,
    });
    expect(res.status).toBe(200);
  });
});
