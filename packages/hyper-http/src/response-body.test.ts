// Answers a broken or hostile server sends: gigantic bodies (cut off at the cap without reading the
// rest), empty and HTML bodies where JSON was expected. Each one is a classified `malformed` error
// that says what arrived.
import type { ServerResponse } from "node:http";
import { serverText } from "@hyperlens/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHyperClient, type HyperClientOptions } from "./client.ts";
import { hyperFailure } from "./testing/hyper-failure.ts";
import { createTestCertificates, type TestCertificates } from "./testing/test-certificates.ts";
import { startHttpsServer, type TestHttpsServer } from "./testing/test-https-server.ts";

let certs: TestCertificates;
const cleanup: Array<() => Promise<void>> = [];
beforeAll(async () => {
  certs = await createTestCertificates();
});
afterAll(async () => {
  for (const close of cleanup.splice(0)) await close();
});

const MiB = 1024 * 1024;

/** A server that streams `bytes` of filler as fast as the client reads, counting what it handed over. */
async function floodServer(
  bytes: number,
  options: { status?: number; declareLength?: boolean } = {},
): Promise<TestHttpsServer & { sent: () => number; finished: Promise<void> }> {
  let sent = 0;
  let markFinished: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    markFinished = resolve;
  });
  const chunk = Buffer.alloc(64 * 1024, "x");
  const flood = async (res: ServerResponse) => {
    const headers: Record<string, string | number> = { "content-type": "application/json" };
    if (options.declareLength) headers["content-length"] = bytes;
    res.writeHead(options.status ?? 200, headers);
    while (sent < bytes && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          res.once("drain", resolve);
          res.once("close", resolve);
        });
      }
    }
    if (!res.destroyed) res.end();
  };
  const server = await startHttpsServer(certs.caSigned, (_req, res) => {
    res.on("close", markFinished);
    return flood(res);
  });
  cleanup.push(server.close);
  return Object.assign(server, { sent: () => sent, finished });
}

function client(baseUrl: string, overrides: Partial<HyperClientOptions> = {}) {
  const made = createHyperClient({
    connectionId: "conn-1",
    source: "Proxmox",
    baseUrl,
    caPem: certs.ca.cert,
    // The flood server listens on loopback, which the door refuses by default.
    allowLoopbackTargets: true,
    retry: { attempts: 1 },
    ...overrides,
  });
  cleanup.push(() => made.close());
  return made;
}

describe("the response body cap", () => {
  it("stops reading a chunked answer at the cap, names the cap, and the server never gets to send the rest", async () => {
    const total = 512 * MiB;
    const server = await floodServer(total);
    const door = client(server.url, { maxBodyBytes: 256 * 1024 });
    const error = await hyperFailure(door.request({ method: "GET", path: "/api2/json/nodes" }));
    expect(error.errorClass).toBe("malformed");
    expect(error.message).toBe(
      "The Proxmox server sent an answer larger than 256 KiB to GET /api2/json/nodes; refused to read it",
    );
    // docs/behaviour.md §11.4: the same sentence as a code.
    expect(error.text).toEqual(
      serverText("hyperAnswerTooLarge", {
        source: "Proxmox",
        size: "256 KiB",
        call: "GET /api2/json/nodes",
      }),
    );
    await server.finished;
    console.info(`body cap 256 KiB: the server handed over ${server.sent()} bytes of ${total}`);
    // What left the server is the cap plus what the socket buffers held when the client hung up.
    expect(server.sent()).toBeGreaterThan(256 * 1024);
    expect(server.sent()).toBeLessThan(8 * MiB);
  });

  it("refuses a declared length over the cap before reading any of it", async () => {
    const total = 512 * MiB;
    const server = await floodServer(total, { declareLength: true });
    const error = await hyperFailure(
      client(server.url, { maxBodyBytes: MiB }).request({ method: "GET", path: "/x" }),
    );
    expect(error.message).toContain("larger than 1 MiB");
    await server.finished;
    expect(server.sent()).toBeLessThan(8 * MiB);
  });

  it("caps at 32 MiB by default", async () => {
    const server = await floodServer(33 * MiB, { declareLength: true });
    const error = await hyperFailure(client(server.url).request({ method: "GET", path: "/x" }));
    expect([error.errorClass, error.message]).toEqual([
      "malformed",
      expect.stringContaining("larger than 32 MiB"),
    ]);
  });

  it("reads at most 64 KiB of an error answer, and still classifies it by its status", async () => {
    const server = await floodServer(512 * MiB, { status: 502 });
    const error = await hyperFailure(client(server.url).request({ method: "GET", path: "/x" }));
    expect([error.errorClass, error.status]).toEqual(["transient", 502]);
    expect(error.message.length).toBeLessThan(1000);
    await server.finished;
    expect(server.sent()).toBeLessThan(8 * MiB);
  });
});

describe("bodies that are not the JSON asked for", () => {
  async function answer(contentType: string, body: string) {
    const server = await startHttpsServer(certs.caSigned, (_req, res) => {
      res.writeHead(200, {
        "content-type": contentType,
        "content-length": Buffer.byteLength(body),
      });
      res.end(body);
    });
    cleanup.push(server.close);
    return client(server.url).request({ method: "GET", path: "/api2/json/nodes" });
  }

  it.each([
    [
      "an empty 200 says it was empty",
      "application/json",
      "",
      "The Proxmox server's answer to GET /api2/json/nodes is empty (HTTP 200), not JSON",
      "hyperAnswerEmpty",
    ],
    [
      "an HTML page (a proxy's or a login page) says it was HTML",
      "text/html; charset=utf-8",
      "<html><body>Sign in</body></html>",
      "The Proxmox server's answer to GET /api2/json/nodes is an HTML page, not JSON (HTTP 200, 33 characters); is a proxy or a login page in front of the server?",
      "hyperAnswerHtml",
    ],
    [
      "truncated JSON names its size",
      "application/json",
      '{"data":[{"node":"pve1"',
      "The Proxmox server's answer to GET /api2/json/nodes is not valid JSON (HTTP 200, 23 characters)",
      "hyperAnswerNotJson",
    ],
  ])("%s", async (_name, contentType, body, message, code) => {
    const response = await answer(contentType, body);
    const error = await hyperFailure(() => response.json());
    expect([error.errorClass, error.message]).toEqual(["malformed", message]);
    // docs/behaviour.md §11.4: the same sentence as a code.
    expect(error.text).toMatchObject({ code, params: { call: "GET /api2/json/nodes" } });
  });
});
