import type { AddressInfo } from "node:net";
import { createServer as createNetServer, type Server } from "node:net";
import { createSemaphore, englishText } from "@hyperlens/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createHyperClient, type HyperClientOptions } from "./client.ts";
import { HyperError, isHyperError } from "./errors.ts";
import { checkHttpsUrl } from "./https-only.ts";
import type { CallLabels } from "./observability.ts";
import { hyperFailure } from "./testing/hyper-failure.ts";
import { createTestCertificates, type TestCertificates } from "./testing/test-certificates.ts";
import {
  sendJson,
  startHttpsServer,
  type TestHandler,
  type TestHttpsServer,
} from "./testing/test-https-server.ts";

let certs: TestCertificates;
const cleanup: Array<() => Promise<void>> = [];

beforeAll(async () => {
  certs = await createTestCertificates();
});

afterEach(async () => {
  for (const close of cleanup.splice(0)) await close();
});

afterAll(async () => {
  for (const close of cleanup.splice(0)) await close();
});

async function server(handler: TestHandler, cert = certs.caSigned): Promise<TestHttpsServer> {
  const started = await startHttpsServer(cert, handler);
  cleanup.push(started.close);
  return started;
}

function client(overrides: Partial<HyperClientOptions> & { baseUrl: string }) {
  const made = createHyperClient({
    connectionId: "conn-1",
    source: "Proxmox",
    verifyTls: true,
    caPem: certs.ca.cert,
    // The test servers listen on loopback, which the door refuses by default.
    allowLoopbackTargets: true,
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    timeouts: { connectMs: 2000, headersMs: 2000, bodyMs: 2000, deadlineMs: 10_000 },
    ...overrides,
  });
  cleanup.push(() => made.close());
  return made;
}

const failure = hyperFailure;

const ok: TestHandler = (_req, res) => sendJson(res, 200, { data: "ok" });

describe("https only", () => {
  it("refuses an http:// address at request time without connecting, with the save-time message", async () => {
    const target = await server(ok);
    const http = client({ baseUrl: `http://127.0.0.1:${target.port}` });
    const error = await failure(http.request({ method: "GET", path: "/api2/json/version" }));
    expect(error.errorClass).toBe("config");
    expect(error.message).toContain(
      `Hyperlens only talks to hypervisors over https; the address http://127.0.0.1:${target.port} is not https`,
    );
    expect(error.message).toContain(checkHttpsUrl(`http://127.0.0.1:${target.port}`));
    // docs/behaviour.md §11.4: our frame as a code, saying the message.
    expect(error.text).toMatchObject({ code: "hyperRefusedToCall", params: { source: "Proxmox" } });
    expect(error.text && englishText(error.text)).toBe(error.message);
    expect(target.requests).toHaveLength(0);
  });
});

describe("TLS verification", () => {
  it("rejects a self-signed certificate by default, naming the reason and the fix", async () => {
    const target = await server(ok, certs.selfSigned);
    const strict = client({ baseUrl: target.url, caPem: null });
    const error = await failure(strict.request({ method: "GET", path: "/x" }));
    expect(error.errorClass).toBe("tls");
    expect(error.tlsReason).toBe("the certificate is self-signed");
    expect(error.message).toContain("The Proxmox server's TLS certificate was not accepted");
    expect(error.message).toContain(
      "add the server's CA certificate or turn off verification for this connection",
    );
    // docs/behaviour.md §11.4: the frame, the reason and the advice as codes, saying the message.
    expect(error.text).toMatchObject({
      code: "hyperTlsRejected",
      params: { reason: { code: "netTlsSelfSigned" }, hint: { code: "netHintAddCa" } },
    });
    expect(error.text && englishText(error.text)).toBe(error.message);
    expect(target.requests).toHaveLength(0);
  });

  it("rejects a certificate from an unknown CA and accepts it once the connection's CA PEM is given", async () => {
    const target = await server(ok);
    const withoutCa = client({ baseUrl: target.url, caPem: null });
    const error = await failure(withoutCa.request({ method: "GET", path: "/x" }));
    expect(error.errorClass).toBe("tls");
    expect(error.tlsReason).toContain("not trusted");
    const withCa = client({ baseUrl: target.url, caPem: certs.ca.cert });
    const answer = await withCa.request({ method: "GET", path: "/x" });
    expect(answer.json()).toEqual({ data: "ok" });
  });

  it("accepts a self-signed certificate given as the connection's own CA PEM", async () => {
    const target = await server(ok, certs.selfSigned);
    const pinned = client({ baseUrl: target.url, caPem: certs.selfSigned.cert });
    expect((await pinned.request({ method: "GET", path: "/x" })).status).toBe(200);
  });

  it("verify off for one connection does not loosen another", async () => {
    const target = await server(ok, certs.selfSigned);
    const loose = client({ baseUrl: target.url, verifyTls: false, caPem: null });
    const strict = client({ baseUrl: target.url, caPem: null });
    expect((await loose.request({ method: "GET", path: "/x" })).status).toBe(200);
    const error = await failure(strict.request({ method: "GET", path: "/x" }));
    expect(error.errorClass).toBe("tls");
    expect((await loose.request({ method: "GET", path: "/x" })).status).toBe(200);
  });

  it("reports an expired certificate as expired", async () => {
    const target = await server(ok, certs.expired);
    const error = await failure(
      client({ baseUrl: target.url }).request({ method: "GET", path: "/x" }),
    );
    expect(error.errorClass).toBe("tls");
    expect(error.tlsReason).toBe("the certificate has expired");
  });

  it("reports a host name mismatch as such", async () => {
    const target = await server(ok, certs.wrongHost);
    const error = await failure(
      client({ baseUrl: target.url }).request({ method: "GET", path: "/x" }),
    );
    expect(error.errorClass).toBe("tls");
    expect(error.tlsReason).toBe("the certificate was issued for a different host name");
  });
});

describe("retries", () => {
  it.each([
    [401, "auth"],
    [403, "permission"],
    [404, "not_found"],
    [400, "malformed"],
  ] as const)("never retries a %i (%s)", async (status, errorClass) => {
    const target = await server((_req, res) => sendJson(res, status, { data: null }));
    const error = await failure(
      client({ baseUrl: target.url }).request({ method: "GET", path: "/x" }),
    );
    expect(error.errorClass).toBe(errorClass);
    expect(error.status).toBe(status);
    expect(target.requests).toHaveLength(1);
  });

  it.each([500, 502, 503, 595])(
    "retries a %i up to the bound, then fails as transient",
    async (status) => {
      const target = await server((_req, res) =>
        sendJson(res, status, { data: null }, "No route to host"),
      );
      const error = await failure(
        client({ baseUrl: target.url }).request({ method: "GET", path: "/x" }),
      );
      expect(error.errorClass).toBe("transient");
      expect(error.attempts).toBe(3);
      expect(error.serverMessage).toBe("No route to host");
      expect(target.requests).toHaveLength(3);
    },
  );

  it("frames a failed call with a code, the server's own words verbatim inside (docs/behaviour.md §11.4)", async () => {
    const target = await server((_req, res) =>
      sendJson(res, 500, { data: null }, "No route to host"),
    );
    const error = await failure(
      client({ baseUrl: target.url }).request({ method: "GET", path: "/x" }),
    );
    expect(error.text).toEqual({
      code: "hyperServerFailing",
      params: {
        source: "Proxmox",
        call: "GET /x",
        http: "HTTP 500: No route to host",
        attempts: 3,
      },
    });
    expect(error.text && englishText(error.text)).toBe(error.message);
  });

  it("succeeds when a transient 500 heals on a later attempt", async () => {
    let calls = 0;
    const target = await server((_req, res) => {
      calls += 1;
      if (calls === 1) sendJson(res, 500, { data: null });
      else sendJson(res, 200, { data: 1 });
    });
    const answer = await client({ baseUrl: target.url }).request({ method: "GET", path: "/x" });
    expect(answer.json()).toEqual({ data: 1 });
    expect(target.requests).toHaveLength(2);
  });

  it("does not retry a 5xx when the caller says it is an expected answer", async () => {
    const target = await server((_req, res) => sendJson(res, 500, { data: null }));
    const error = await failure(
      client({ baseUrl: target.url }).request({
        method: "GET",
        path: "/x",
        retryServerErrors: false,
      }),
    );
    expect(error.errorClass).toBe("transient");
    expect(target.requests).toHaveLength(1);
  });

  it("retries a reset connection for a read but never re-sends a login that reached the server", async () => {
    const target = await server((req, res) => {
      req.socket.destroy();
      res.destroy();
    });
    const door = client({
      baseUrl: target.url,
      allowedWrites: [{ method: "POST", pathPattern: /\/login/ }],
    });
    const read = await failure(door.request({ method: "GET", path: "/x" }));
    expect(read.errorClass).toBe("unreachable");
    expect(target.requests).toHaveLength(3);
    target.requests.length = 0;
    const login = await failure(
      door.request({ method: "POST", path: "/login", purpose: "login", body: "username=a" }),
    );
    expect(login.errorClass).toBe("unreachable");
    expect(target.requests).toHaveLength(1);
  });
});

describe("unreachable", () => {
  it("names an unresolvable host", async () => {
    const door = client({ baseUrl: "https://nonexistent.invalid:8006" });
    const error = await failure(door.request({ method: "GET", path: "/api2/json/nodes" }));
    expect(error.errorClass).toBe("unreachable");
    expect(error.message).toBe(
      "Could not reach the Proxmox server: could not resolve host nonexistent.invalid",
    );
  });

  it("names a refused connection, after a bounded number of attempts", async () => {
    const port = await closedPort();
    const lines: Record<string, unknown>[] = [];
    const door = client({
      baseUrl: `https://127.0.0.1:${port}`,
      logger: { info: (e) => lines.push(e), warn: (e) => lines.push(e) },
    });
    const error = await failure(door.request({ method: "GET", path: "/x" }));
    expect(error.errorClass).toBe("unreachable");
    expect(error.message).toBe(
      `Could not reach the Proxmox server: connection refused by 127.0.0.1:${port} (3 attempts)`,
    );
    expect(error.text).toEqual({
      code: "hyperUnreachable",
      params: {
        source: "Proxmox",
        reason: { code: "netRefused", params: { hostPort: `127.0.0.1:${port}` } },
        attempts: 3,
      },
    });
    expect(lines).toHaveLength(3);
  });

  it("times out a server that never answers", async () => {
    const target = await server(() => {});
    const door = client({
      baseUrl: target.url,
      retry: { attempts: 1 },
      timeouts: { headersMs: 200 },
    });
    const error = await failure(door.request({ method: "GET", path: "/x" }));
    expect(error.errorClass).toBe("unreachable");
    expect(error.message).toContain("did not answer within the timeout");
  });

  it("times out a handshake that never completes", async () => {
    const silent = await silentTcpServer();
    const door = client({
      baseUrl: `https://127.0.0.1:${silent.port}`,
      retry: { attempts: 1 },
      timeouts: { connectMs: 200 },
    });
    const error = await failure(door.request({ method: "GET", path: "/x" }));
    expect(error.errorClass).toBe("unreachable");
    expect(error.message).toContain("connect timeout");
  });

  it("gives up at the overall deadline", async () => {
    const target = await server(() => {});
    const door = client({ baseUrl: target.url, timeouts: { headersMs: 5000, deadlineMs: 300 } });
    const error = await failure(door.request({ method: "GET", path: "/x" }));
    expect(error.errorClass).toBe("unreachable");
    expect(error.message).toContain("no complete answer");
    expect(error.text).toMatchObject({
      code: "hyperUnreachable",
      params: { reason: { code: "netDeadline", params: { seconds: 0 } } },
    });
    expect(error.text && englishText(error.text)).toBe(error.message);
  });

  it("the deadline cuts a retry backoff short instead of sleeping it out", async () => {
    const target = await server((_req, res) => sendJson(res, 503, { data: null }));
    const door = client({
      baseUrl: target.url,
      retry: { attempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      timeouts: { deadlineMs: 300 },
    });
    // A fixed jitter makes the backoff 30 s, far past the deadline.
    const random = vi.spyOn(Math, "random").mockReturnValue(0.5);
    try {
      const started = performance.now();
      const error = await failure(door.request({ method: "GET", path: "/x" }));
      expect(error.errorClass).toBe("transient");
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(target.requests).toHaveLength(1);
    } finally {
      random.mockRestore();
    }
  });
});

describe("answers that cannot be used", () => {
  it("refuses an oversized body as malformed (declared length)", async () => {
    const target = await server((_req, res) => sendJson(res, 200, { data: "x".repeat(5000) }));
    const door = client({ baseUrl: target.url, maxBodyBytes: 1024 });
    const error = await failure(door.request({ method: "GET", path: "/x" }));
    expect(error.errorClass).toBe("malformed");
    expect(error.message).toContain("larger than 1 KiB");
  });

  it("refuses an oversized body as malformed (chunked, no length)", async () => {
    const target = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      for (let i = 0; i < 10; i++) res.write("x".repeat(512));
      res.end();
    });
    const door = client({ baseUrl: target.url, maxBodyBytes: 1024 });
    const error = await failure(door.request({ method: "GET", path: "/x" }));
    expect(error.errorClass).toBe("malformed");
  });

  it("reports a body that is not JSON as malformed", async () => {
    const target = await server((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>login</html>");
    });
    const answer = await client({ baseUrl: target.url }).request({ method: "GET", path: "/x" });
    expect(() => answer.json()).toThrow(HyperError);
    try {
      answer.json();
    } catch (error) {
      expect(isHyperError(error) && error.errorClass).toBe("malformed");
    }
  });

  it("does not follow redirects", async () => {
    const target = await server((req, res) => {
      if (req.url === "/x") {
        res.writeHead(302, { location: "/elsewhere?ticket=abcdef" });
        res.end();
      } else sendJson(res, 200, { data: "followed" });
    });
    const error = await failure(
      client({ baseUrl: target.url }).request({ method: "GET", path: "/x" }),
    );
    expect(error.errorClass).toBe("config");
    expect(error.message).toContain("redirect to /elsewhere");
    expect(error.message).not.toContain("abcdef");
    expect(target.requests.map((r) => r.url)).toEqual(["/x"]);
  });
});

describe("read-only guard", () => {
  const allowedWrites = [{ method: "POST" as const, pathPattern: /\/api2\/json\/access\/ticket/ }];

  it("fails a POST to a path that is not a declared login, without reaching the server", async () => {
    const target = await server(ok);
    const door = client({ baseUrl: target.url, allowedWrites });
    for (const req of [
      {
        method: "POST",
        path: "/api2/json/nodes/pve/qemu/100/status/stop",
        purpose: "login" as const,
      },
      { method: "PUT", path: "/api2/json/access/ticket", purpose: "login" as const },
      { method: "DELETE", path: "/api2/json/access/ticket", purpose: "logout" as const },
      { method: "POST", path: "/api2/json/access/ticket", purpose: "read" as const },
      { method: "POST", path: "/api2/json/access/ticket" },
      { method: "POST", path: "/api2/json/access/ticket/extra", purpose: "login" as const },
    ]) {
      const error = await failure(door.request(req));
      expect(error.errorClass).toBe("config");
      expect(error.attempts).toBe(0);
    }
    expect(target.requests).toHaveLength(0);
  });

  it("sends a declared login", async () => {
    const target = await server(ok);
    const door = client({ baseUrl: target.url, allowedWrites });
    const answer = await door.request({
      method: "POST",
      path: "/api2/json/access/ticket",
      purpose: "login",
      body: "username=root%40pam&password=pw",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(answer.status).toBe(200);
    expect(target.requests[0]?.method).toBe("POST");
  });

  it("refuses a path that would leave the configured server", async () => {
    const target = await server(ok);
    const error = await failure(
      client({ baseUrl: target.url }).request({ method: "GET", path: "//evil.example/x" }),
    );
    expect(error.errorClass).toBe("config");
    expect(target.requests).toHaveLength(0);
  });
});

describe("secrets", () => {
  it("never puts a token, password, cookie or secret query value into log lines or error messages", async () => {
    const secret = "5f1e0c3a-secret-token-value";
    const password = "hunter2-password";
    const ticket = "PVE:root@pam:65A1B2C3::sig-ticket-value";
    const target = await server((req, res) =>
      // A server that echoes what it got into its error text, the worst case.
      sendJson(res, 401, {
        data: null,
        message: `bad ${req.headers.authorization} ${req.bodyText}`,
      }),
    );
    const lines: Record<string, unknown>[] = [];
    const door = client({
      baseUrl: target.url,
      allowedWrites: [{ method: "POST", pathPattern: /\/login/ }],
      logger: { info: (e) => lines.push(e), warn: (e) => lines.push(e) },
    });
    const errors = [
      await failure(
        door.request({
          method: "GET",
          path: "/x",
          query: { ticket },
          headers: {
            Authorization: `PVEAPIToken=root@pam!ro=${secret}`,
            cookie: `PVEAuthCookie=${ticket}`,
          },
        }),
      ),
      await failure(
        door.request({
          method: "POST",
          path: "/login",
          purpose: "login",
          body: `username=root%40pam&password=${password}`,
        }),
      ),
    ];
    const printed =
      JSON.stringify(lines) + errors.map((e) => `${e.message} ${e.serverMessage}`).join();
    expect(printed).toContain("bad ***");
    for (const value of [secret, password, ticket, encodeURIComponent(ticket)]) {
      expect(printed).not.toContain(value);
    }
  });
});

describe("input undici refuses", () => {
  it("a secret with a line break fails as config without quoting the secret or reaching the server", async () => {
    const target = await server(ok);
    const error = await failure(
      client({ baseUrl: target.url }).request({
        method: "GET",
        path: "/x",
        headers: { authorization: "PVEAPIToken=u@pve!ro=abc\r\nX-Evil: 1" },
      }),
    );
    expect(error.errorClass).toBe("config");
    expect(error.message).not.toContain("abc");
    expect(error.text).toMatchObject({ code: "hyperSendFailed", params: { call: "GET /x" } });
    expect(error.text && englishText(error.text)).toBe(error.message);
    expect(target.requests).toHaveLength(0);
  });
});

describe("server messages", () => {
  it("reads the Proxmox error text from the status line before 8.3 and from `message` after", async () => {
    let modern = false;
    const target = await server((_req, res) =>
      modern
        ? sendJson(
            res,
            403,
            { data: null, message: "Permission check failed (/, Sys.Audit)\n" },
            "Permission check failed (/, Sys.Audit)",
          )
        : sendJson(res, 403, { data: null }, "Permission check failed (/, Sys.Audit)"),
    );
    const door = client({ baseUrl: target.url });
    const old = await failure(door.request({ method: "GET", path: "/api2/json/cluster/status" }));
    modern = true;
    const current = await failure(
      door.request({ method: "GET", path: "/api2/json/cluster/status" }),
    );
    for (const error of [old, current]) {
      expect(error.serverMessage).toBe("Permission check failed (/, Sys.Audit)");
      expect(error.message).toBe(
        "The Proxmox server refused GET /api2/json/cluster/status (HTTP 403: Permission check failed (/, Sys.Audit)); the account lacks the permission to read it",
      );
    }
  });
});

describe("server messages of answers that are not a hypervisor's", () => {
  it.each(["Proxmox", "vCenter", "Cloud Director"] as const)(
    "a %s client names the class and the status of an unrecognised answer, never its text",
    async (source) => {
      const target = await server((_req, res) =>
        sendJson(res, 403, { message: "internal-service-banner 7.2 admin:admin" }, "Banner Text"),
      );
      const error = await failure(
        client({ baseUrl: target.url, source }).request({ method: "GET", path: "/x" }),
      );
      expect(error.errorClass).toBe("permission");
      expect(error.status).toBe(403);
      expect(error.serverMessage).toBeUndefined();
      expect(error.message).toContain("HTTP 403");
      expect(error.message).not.toMatch(/banner/i);
    },
  );
});

describe("logging and metrics", () => {
  /** A server that fails the first call (503) and answers the second. */
  async function failingOnce() {
    let calls = 0;
    return server((_req, res) => {
      calls += 1;
      sendJson(res, calls === 1 ? 503 : 200, { data: null });
    });
  }

  it("logs and counts every attempt with method, path, status, duration, connection and correlation id", async () => {
    const target = await failingOnce();
    const lines: { level: string; entry: Record<string, unknown> }[] = [];
    const counted: CallLabels[] = [];
    const observed: number[] = [];
    const door = client({
      baseUrl: target.url,
      correlationId: "sync-42",
      logger: {
        debug: (entry) => lines.push({ level: "debug", entry }),
        info: (entry) => lines.push({ level: "info", entry }),
        warn: (entry) => lines.push({ level: "warn", entry }),
      },
      metrics: { count: (_n, l) => counted.push(l), observe: (_n, s) => observed.push(s) },
    });
    await door.request({
      method: "GET",
      path: "/api2/json/nodes",
      query: { password: "x1234", type: "vm" },
    });
    // docs/operations.md "Log levels": a failed call is a warn line, a successful one debug.
    expect(lines.map((l) => [l.level, l.entry.status])).toEqual([
      ["warn", 503],
      ["debug", 200],
    ]);
    expect(lines[1]?.entry).toMatchObject({
      msg: "hypervisor call",
      method: "GET",
      path: "/api2/json/nodes?password=***&type=vm",
      status: 200,
      connectionId: "conn-1",
      correlationId: "sync-42",
      attempt: 2,
      source: "Proxmox",
    });
    expect(typeof lines[1]?.entry.durationMs).toBe("number");
    expect(counted.map((l) => l.outcome)).toEqual(["503", "200"]);
    expect(observed).toHaveLength(2);
  });

  it("writes no line for a successful call to a logger without debug, and still counts it", async () => {
    const target = await failingOnce();
    const lines: Record<string, unknown>[] = [];
    const counted: CallLabels[] = [];
    const door = client({
      baseUrl: target.url,
      logger: { info: (e) => lines.push(e), warn: (e) => lines.push(e) },
      metrics: { count: (_n, l) => counted.push(l), observe() {} },
    });
    await door.request({ method: "GET", path: "/api2/json/nodes" });
    expect(lines.map((l) => l.status)).toEqual([503]);
    expect(counted.map((l) => l.outcome)).toEqual(["503", "200"]);
  });
});

describe("concurrency", () => {
  const slow: TestHandler = async (_req, res) => {
    await new Promise((resolve) => setTimeout(resolve, 60));
    sendJson(res, 200, { data: null });
  };

  it("keeps at most `perConnection` calls in flight to one connection", async () => {
    const target = await server(slow);
    const door = client({ baseUrl: target.url, concurrency: { perConnection: 2 } });
    await Promise.all(Array.from({ length: 8 }, () => door.request({ method: "GET", path: "/x" })));
    expect(target.requests).toHaveLength(8);
    expect(target.maxInFlight).toBe(2);
  });

  it("keeps at most `perNode` calls in flight to one node, and nodes side by side", async () => {
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    const target = await server(async (req, res) => {
      const node = req.url?.split("/")[2] ?? "cluster";
      inFlight.set(node, (inFlight.get(node) ?? 0) + 1);
      most.set(node, Math.max(most.get(node) ?? 0, inFlight.get(node) ?? 0));
      await new Promise((resolve) => setTimeout(resolve, 60));
      inFlight.set(node, (inFlight.get(node) ?? 0) - 1);
      sendJson(res, 200, { data: null });
    });
    const door = client({
      baseUrl: target.url,
      concurrency: {
        perConnection: 8,
        perNode: { limit: 2, nodeOf: (path) => /^\/nodes\/([^/]+)/.exec(path)?.[1] },
      },
    });
    expect(door.limits).toEqual({ perConnection: 8, perNode: 2 });
    const paths = ["a", "a", "a", "a", "a", "b", "b", "b"].map((node) => `/nodes/${node}/x`);
    await Promise.all(
      [...paths, "/cluster", "/cluster"].map((path) => door.request({ method: "GET", path })),
    );
    // docs/behaviour.md §3.7: the node limit is on top of the connection's; unnamed paths pass.
    expect(Object.fromEntries(most)).toEqual({ a: 2, b: 2, cluster: 2 });
    expect(target.maxInFlight).toBeLessThanOrEqual(6);
  });

  it("keeps at most the global cap in flight across clients", async () => {
    const target = await server(slow);
    const global = createSemaphore(3);
    const doors = [1, 2, 3].map((n) =>
      client({
        baseUrl: target.url,
        connectionId: `c${n}`,
        concurrency: { perConnection: 4, global },
      }),
    );
    await Promise.all(
      doors.flatMap((door) =>
        Array.from({ length: 4 }, () => door.request({ method: "GET", path: "/x" })),
      ),
    );
    expect(target.requests).toHaveLength(12);
    expect(target.maxInFlight).toBe(3);
  });
});

async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function silentTcpServer(): Promise<{ port: number }> {
  const sockets: import("node:net").Socket[] = [];
  const silent: Server = createNetServer((socket) => {
    sockets.push(socket);
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        silent.close(() => resolve());
      }),
  );
  return { port: (silent.address() as AddressInfo).port };
}
