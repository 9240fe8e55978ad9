import { describe, expect, it } from "vitest";
import type { StandinReply } from "../http/reply.ts";
import { startStandinServer } from "../http/server.ts";
import { standinTls } from "../tls.ts";
import { closedAfterEach } from "./closed-after-each.ts";
import { hostileReplies, type ReplyFormat } from "./hostile-replies.ts";
import { call, header, type RawResponse } from "./https-client.ts";
import { instrumented } from "./instruments.ts";

const REAL: Record<ReplyFormat, StandinReply> = {
  json: {
    status: 200,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ data: [{ vmid: 100, name: "web", running: true }] }),
  },
  xml: {
    status: 200,
    headers: { "Content-Type": "application/*+xml" },
    body: '<?xml version="1.0"?>\n<QueryResultRecords total="1" page="1"><VMRecord name="web" href="https://x/vm-1" numberOfCpus="2"/></QueryResultRecords>',
  },
};

const start = closedAfterEach(startStandinServer);

async function hostile(format: ReplyFormat, name: string): Promise<RawResponse> {
  const reply = hostileReplies(format, 200_000).find((r) => r.name === name);
  if (!reply) throw new Error(`no hostile reply ${name}`);
  const tls = await standinTls();
  const server = await instrumented((intercept) =>
    start({ tls, handle: () => REAL[format], intercept }),
  );
  reply.install(server.faults, "/list");
  return call(`${server.url}/list`, { ca: (await standinTls()).caPem });
}

describe("the hostile-reply catalogue", () => {
  it("has the same replies for JSON and XML APIs", () => {
    expect(hostileReplies("json").map((r) => r.name)).toEqual(
      hostileReplies("xml").map((r) => r.name),
    );
  });

  it("JSON: wrong types and missing fields are still JSON, but not the real shape", async () => {
    expect(JSON.parse((await hostile("json", "fields of the wrong type")).body)).toEqual({
      data: [{ vmid: "100x", name: 7, running: "yes" }],
    });
    expect(JSON.parse((await hostile("json", "missing fields")).body)).toEqual({
      data: [{ vmid: 100 }],
    });
    expect((await hostile("json", "a document with nothing in it")).body).toBe("null");
  });

  it("XML: numbers become words and elements keep only their first attribute", async () => {
    expect((await hostile("xml", "fields of the wrong type")).body).toContain(
      '<QueryResultRecords total="many" page="many">',
    );
    const missing = (await hostile("xml", "missing fields")).body;
    expect(missing).toContain('<VMRecord name="web"/>');
    expect(missing).toContain('<QueryResultRecords total="1">');
  });

  it("HTML pages, truncated and empty bodies, and a gigantic body of the given size", async () => {
    const proxy = await hostile("json", "a reverse proxy's 502 page");
    expect([proxy.status, header(proxy, "content-type")]).toEqual([502, "text/html"]);
    const login = await hostile("xml", "an HTML login page with 200");
    expect([login.status, login.body]).toEqual([200, expect.stringContaining("<title>Sign in")]);
    const truncated = await hostile("json", "truncated");
    expect(() => JSON.parse(truncated.body)).toThrow();
    expect((await hostile("xml", "an empty 200")).body).toBe("");
    const gigantic = await hostile("json", "a gigantic body");
    expect(gigantic.body.length).toBe(200_000);
    expect(gigantic.body.startsWith('{"data":[{"vmid":100},')).toBe(true);
  });
});
