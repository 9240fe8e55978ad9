import { request } from "node:https";
import { describe, expect, it, vi } from "vitest";
import type { StandinHandler } from "../http/reply.ts";
import { startStandinServer } from "../http/server.ts";
import { standinTls } from "../tls.ts";
import { closedAfterEach } from "./closed-after-each.ts";
import { call, header } from "./https-client.ts";
import { instrumented } from "./instruments.ts";

const JSON_BODY = JSON.stringify({ data: { hello: "world", list: [1, 2, 3] } });
const echo: StandinHandler = () => ({
  status: 200,
  headers: { "Content-Type": "application/json" },
  body: JSON_BODY,
  route: "GET /echo",
});

const startServer = closedAfterEach(startStandinServer);

async function start(maxWorkers?: number) {
  const tls = await standinTls();
  return instrumented((intercept) => startServer({ tls, handle: echo, intercept }), { maxWorkers });
}

describe("a stand-in server with its instruments", () => {
  it("answers a status fault with the given reason and body, then recovers", async () => {
    const s = await start();
    s.faults.fail("/echo", 595, { reason: "Connection refused", times: 1 });
    const { caPem } = await standinTls();
    const failed = await call(`${s.url}/echo`, { ca: caPem });
    expect([failed.status, failed.reason, failed.body]).toEqual([595, "Connection refused", ""]);
    expect((await call(`${s.url}/echo`, { ca: caPem })).status).toBe(200);
    expect(s.requests.map((r) => [r.status, r.fault !== undefined])).toEqual([
      [595, true],
      [200, false],
    ]);
  });

  it("truncates a body so it is no longer valid JSON", async () => {
    const s = await start();
    s.faults.truncate("/echo");
    const response = await call(`${s.url}/echo`, { ca: (await standinTls()).caPem });
    expect(response.status).toBe(200);
    expect(response.body.length).toBeLessThan(JSON_BODY.length);
    expect(() => JSON.parse(response.body)).toThrow();
  });

  it("serves an HTML error page", async () => {
    const s = await start();
    s.faults.html("/echo", { status: 200 });
    const response = await call(`${s.url}/echo`, { ca: (await standinTls()).caPem });
    expect(header(response, "Content-Type")).toBe("text/html");
    expect(response.body).toContain("<html>");
  });

  it("resets the connection", async () => {
    const s = await start();
    s.faults.reset("/echo");
    await expect(call(`${s.url}/echo`, { ca: (await standinTls()).caPem })).rejects.toThrow(
      /ECONNRESET|socket hang up/,
    );
    expect(s.requests[0]?.status).toBe(0);
  });

  it("hangs until the client gives up, and close() still returns", async () => {
    const s = await start();
    s.faults.hang("/echo");
    await expect(
      call(`${s.url}/echo`, { ca: (await standinTls()).caPem, timeoutMs: 100 }),
    ).rejects.toThrow(/client timeout/);
    const pending = call(`${s.url}/echo`, { ca: (await standinTls()).caPem }).catch(
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await s.close();
    expect(await pending).toBeInstanceOf(Error);
  });

  it("delays one request on top of the global latency and records the route", async () => {
    const s = await start();
    s.faults.latencyMs = 5;
    s.faults.delay("/echo", 20, { nth: 1 });
    expect((await call(`${s.url}/echo`, { ca: (await standinTls()).caPem })).status).toBe(200);
    expect(s.stats.byRoute["GET /echo"]).toBe(1);
  });

  it("with maxWorkers, concurrent requests beyond the limit queue: at most N are handled at once", async () => {
    const s = await start(3);
    s.faults.latencyMs = 20;
    const { caPem } = await standinTls();
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => call(`${s.url}/echo`, { ca: caPem })),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(s.workers.peakInUse).toBe(3);
    expect(s.stats.maxInFlight).toBeGreaterThan(3);
    expect(s.stats.inFlight).toBe(0);
  });
});

describe("hostile-reply switches", () => {
  it("replies with exactly the given status, content type and body, even an empty 200", async () => {
    const s = await start();
    s.faults.reply("/echo", { body: "" }, { times: 1 });
    s.faults.reply("/echo", {
      status: 502,
      contentType: "text/html",
      body: "<h1>Bad Gateway</h1>",
    });
    const { caPem } = await standinTls();
    const empty = await call(`${s.url}/echo`, { ca: caPem });
    expect([empty.status, empty.body, header(empty, "content-length")]).toEqual([200, "", "0"]);
    const html = await call(`${s.url}/echo`, { ca: caPem });
    expect([html.status, header(html, "content-type"), html.body]).toEqual([
      502,
      "text/html",
      "<h1>Bad Gateway</h1>",
    ]);
  });

  it("rewrites the real answer, so a field can arrive with the wrong type", async () => {
    const s = await start();
    s.faults.rewrite("/echo", (body) => body.replace('"world"', "42"));
    const response = await call(`${s.url}/echo`, { ca: (await standinTls()).caPem });
    expect(JSON.parse(response.body)).toEqual({ data: { hello: 42, list: [1, 2, 3] } });
  });

  it("streams a flood of the exact size to a client that reads it all", async () => {
    const s = await start();
    s.faults.flood("/echo", { bytes: 300_000, prefix: '{"data":[', unit: "0,", suffix: "0]}" });
    const response = await call(`${s.url}/echo`, { ca: (await standinTls()).caPem });
    expect(response.body.length).toBe(300_000);
    expect(JSON.parse(response.body).data).toHaveLength(149_995);
    expect(s.requests[0]?.sentBytes).toBe(300_000);
  });

  it("stops a flood when the client hangs up, having sent a small fraction of it", async () => {
    const s = await start();
    const total = 1024 ** 3;
    s.faults.flood("/echo", { bytes: total, declareLength: true });
    const { caPem } = await standinTls();
    await new Promise<void>((resolve, reject) => {
      const req = request(`${s.url}/echo`, { ca: caPem, agent: false }, (res) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read >= 1024 * 1024) {
            res.destroy();
            resolve();
          }
        });
      });
      req.on("error", reject);
      req.end();
    });
    // The flood ends when its socket closes; wait until nothing more is being sent.
    let last = -1;
    await vi.waitFor(
      () => {
        const sent = s.requests[0]?.sentBytes ?? 0;
        const isSettled = sent === last;
        last = sent;
        expect(isSettled).toBe(true);
      },
      { interval: 200, timeout: 20_000 },
    );
    expect(last).toBeGreaterThanOrEqual(1024 * 1024);
    expect(last).toBeLessThan(total / 50);
  });
});
