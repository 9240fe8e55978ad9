import { describe, expect, it } from "vitest";
import { closedAfterEach } from "../testing/closed-after-each.ts";
import { call } from "../testing/https-client.ts";
import { standinTls } from "../tls.ts";
import type { StandinHandler } from "./reply.ts";
import { type StandinServerOptions, startStandinServer } from "./server.ts";

const hello: StandinHandler = () => ({ status: 200, body: "hello", route: "GET /hello" });

const startServer = closedAfterEach(startStandinServer);

async function start(options: Partial<StandinServerOptions> = {}) {
  return startServer({ tls: await standinTls(), handle: hello, ...options });
}

describe("the generic stand-in server", () => {
  it("generates the CA and server certificate once per process", async () => {
    expect(await standinTls()).toBe(await standinTls());
  });

  it("answers with its handler over HTTPS on the stand-in CA", async () => {
    const s = await start();
    const response = await call(`${s.url}/hello`, { ca: (await standinTls()).caPem });
    expect([response.status, response.body]).toEqual([200, "hello"]);
  });

  it("a handler that throws becomes a 500, not a dropped connection", async () => {
    const s = await start({
      handle: () => {
        throw new Error("boom");
      },
    });
    const response = await call(`${s.url}/echo`, { ca: (await standinTls()).caPem });
    expect([response.status, response.body]).toEqual([500, "boom"]);
  });

  it("lets its interceptor change the handler's answer, or answer in its place", async () => {
    const s = await start({
      intercept: async ({ request }, next) =>
        request.path === "/instead"
          ? { status: 503, body: "" }
          : { ...(await next()), status: 201 },
    });
    const { caPem } = await standinTls();
    expect((await call(`${s.url}/hello`, { ca: caPem })).status).toBe(201);
    expect((await call(`${s.url}/instead`, { ca: caPem })).status).toBe(503);
  });
});
