// OpenTelemetry tracing end to end: a GraphQL operation and a Proxmox sync (password login)
// against the stand-in, traced into an in-memory exporter and into a local OTLP/HTTP collector.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createProxmoxStandin,
  type ProxmoxStandin,
  proxmoxNode,
  qemuGuest,
} from "@hyperlens/standins/testing";
import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { createLogger } from "../logger.ts";
import { captureLogLines, findLeaks, registerSecret } from "../testing/secret-registry.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";
import { createTracing } from "./tracer-provider.ts";
import { startTracing, type Tracing } from "./tracing.ts";

const PASSWORD = "traced-sync-password-7f3a";
const COLLECTOR_KEY = "collector-api-key-91c2e";
registerSecret(PASSWORD);
registerSecret(COLLECTOR_KEY);

const SAVE = `mutation SaveTraced($input: ProxmoxConnectionInput!) {
  saveProxmoxConnection(input: $input) {
    __typename ... on MutationSaveProxmoxConnectionSuccess { data { id } }
  }
}`;
const SYNC = `mutation SyncTraced($id: ID!) {
  syncConnection(id: $id, wait: true) { outcome counts { seen } }
}`;

function tracingConfig(env: Record<string, string>) {
  const config = loadConfig({ NODE_ENV: "test", ...env }).tracing;
  if (!config) throw new Error("tracing should be on");
  return config;
}

/** Everything a span carries as text: the leak check scans it like a log line. */
function spanText(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    status: span.status,
    events: span.events,
    resource: span.resource.attributes,
  });
}

let app: TestApp;
let admin: string;
let standin: ProxmoxStandin;

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
  standin = await createProxmoxStandin({
    cluster: {
      name: "lab",
      nodes: [proxmoxNode({ name: "pve1" }, 0), proxmoxNode({ name: "pve2" }, 1)],
      guests: [100, 101, 102].map((vmid, i) =>
        qemuGuest({
          vmid,
          name: `vm${vmid}`,
          node: i % 2 ? "pve2" : "pve1",
          nics: [{ mac: `BC:24:11:00:01:0${i}` }],
        }),
      ),
    },
    users: [{ username: "auditor@pve", password: PASSWORD, role: "auditor" }],
  });
});
afterAll(async () => {
  await standin?.close();
  await app?.close();
});

/** Saves a password connection and syncs it through the API; returns the connection's row id. */
async function saveAndSync(name: string): Promise<string> {
  const saved = await app.graphql<{ saveProxmoxConnection: { data?: { id: string } } }>(
    SAVE,
    {
      input: {
        name,
        url: standin.url,
        caPem: standin.caPem,
        verifyTls: true,
        username: "auditor@pve",
        tokenId: "",
        secret: PASSWORD,
      },
    },
    { cookie: admin },
  );
  const id = saved.body.data?.saveProxmoxConnection.data?.id;
  if (!id) throw new Error(JSON.stringify(saved.body));
  const synced = await app.graphql<{ syncConnection: { outcome: string } }>(
    SYNC,
    { id },
    { cookie: admin },
  );
  expect(synced.body.data?.syncConnection.outcome).toBe("SUCCESS");
  const row = await app.services.prisma.connection.findFirstOrThrow({ where: { name } });
  return row.id;
}

describe("tracing into an in-memory exporter", () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let connectionId: string;
  let spans: ReadableSpan[];

  beforeAll(async () => {
    tracing = await createTracing(tracingConfig({ OTEL_TRACES_EXPORTER: "otlp" }), {
      exporters: [exporter],
    });
    app.services.tracing = tracing;
    connectionId = await saveAndSync("traced");
    await tracing.flush();
    spans = exporter.getFinishedSpans();
    captureLogLines(spans.map(spanText));
  });
  afterAll(async () => {
    app.services.tracing = undefined;
    await tracing?.shutdown();
  });

  const syncSpan = () => {
    const found = spans.filter((span) => span.name === "hyperlens.sync");
    expect(found).toHaveLength(1);
    return found[0] as ReadableSpan;
  };
  const callSpans = () => spans.filter((span) => span.kind === SpanKind.CLIENT);

  it("traces each GraphQL operation by type and name, without its variables", () => {
    const operations = spans.filter((span) => span.attributes["graphql.operation.type"]);
    const names = operations.map((span) => span.name);
    expect(names).toEqual(expect.arrayContaining(["mutation SaveTraced", "mutation SyncTraced"]));
    const sync = operations.find((span) => span.name === "mutation SyncTraced");
    expect(sync?.attributes).toMatchObject({
      "graphql.operation.name": "SyncTraced",
      "hyperlens.graphql.root_field": "syncConnection",
    });
    for (const span of operations) {
      expect(Object.keys(span.attributes).filter((key) => /variable|document/.test(key))).toEqual(
        [],
      );
    }
  });

  it("gives the sync one span with its connection, run, correlation id, outcome and counts", async () => {
    const run = await app.services.prisma.syncRun.findFirstOrThrow({ where: { connectionId } });
    expect(syncSpan().attributes).toMatchObject({
      "hyperlens.connection.id": connectionId,
      "hyperlens.connection.kind": "PROXMOX",
      "hyperlens.sync.run_id": run.id,
      "hyperlens.correlation_id": run.correlationId,
      "hyperlens.sync.trigger": "MANUAL",
      "hyperlens.sync.outcome": "SUCCESS",
      "hyperlens.sync.counts.seen": 3,
      "hyperlens.sync.counts.added": 3,
    });
  });

  it("parents every hypervisor call under the sync span, with its correlation id", async () => {
    const sync = syncSpan();
    const run = await app.services.prisma.syncRun.findFirstOrThrow({ where: { connectionId } });
    const calls = callSpans();
    const requests = calls.map((span) => `${span.name} ${span.attributes["url.path"]}`);
    expect(requests).toEqual(
      expect.arrayContaining([
        "POST /api2/json/access/ticket",
        "GET /api2/json/nodes",
        "GET /api2/json/nodes/pve1/qemu",
        "GET /api2/json/nodes/pve2/qemu/101/config",
      ]),
    );
    for (const call of calls) {
      expect(call.spanContext().traceId).toBe(sync.spanContext().traceId);
      expect(call.parentSpanContext?.spanId).toBe(sync.spanContext().spanId);
      expect(call.attributes).toMatchObject({
        "hyperlens.correlation_id": run.correlationId,
        "hyperlens.connection.id": connectionId,
        "hyperlens.hypervisor.attempt": 1,
        "server.address": "127.0.0.1",
      });
    }
    const nodes = calls.find((span) => span.attributes["url.path"] === "/api2/json/nodes");
    expect(nodes?.attributes["http.response.status_code"]).toBe(200);
  });

  it("puts no secret in any span", () => {
    expect(spans.length).toBeGreaterThan(5);
    const all = spans.map(spanText).join("\n");
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain("PVEAuthCookie");
    expect(findLeaks()).toEqual([]);
  });
});

describe("tracing into an OTLP/HTTP collector", () => {
  const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => collector.close(resolve));
  });

  it("posts the sync's spans with the service name and resource attributes", async () => {
    const { port } = collector.address() as AddressInfo;
    const config = loadConfig({
      NODE_ENV: "test",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}/`,
      OTEL_SERVICE_NAME: "hyperlens-ci",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=ci,service.name=ignored",
      OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${COLLECTOR_KEY}`,
    });
    const tracing = await startTracing(config.tracing, createLogger("silent"));
    if (!tracing) throw new Error("tracing should be on");
    app.services.tracing = tracing;
    try {
      await saveAndSync("collected");
      await tracing.flush();
    } finally {
      app.services.tracing = undefined;
      await tracing.shutdown();
    }
    captureLogLines(received.map((r) => r.body));

    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.path === "/v1/traces")).toBe(true);
    expect(received[0]?.headers["content-type"]).toBe("application/json");
    expect(received[0]?.headers["x-collector-key"]).toBe(COLLECTOR_KEY);

    type OtlpValue = { stringValue?: string };
    type OtlpSpan = {
      name: string;
      spanId: string;
      parentSpanId?: string;
      attributes: { key: string; value: OtlpValue }[];
    };
    type OtlpExport = {
      resourceSpans: {
        resource: { attributes: { key: string; value: OtlpValue }[] };
        scopeSpans: { spans: OtlpSpan[] }[];
      }[];
    };
    const exports = received.map((r) => JSON.parse(r.body) as OtlpExport);
    const resources = exports.flatMap((e) => e.resourceSpans.map((rs) => rs.resource));
    for (const resource of resources) {
      const attributes = Object.fromEntries(
        resource.attributes.map((a) => [a.key, a.value.stringValue]),
      );
      expect(attributes).toMatchObject({
        "service.name": "hyperlens-ci",
        "deployment.environment": "ci",
      });
    }
    const spans = exports.flatMap((e) =>
      e.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)),
    );
    const sync = spans.find((span) => span.name === "hyperlens.sync");
    expect(sync).toBeDefined();
    const children = spans.filter((span) => span.parentSpanId === sync?.spanId);
    expect(children.map((span) => span.name)).toEqual(expect.arrayContaining(["POST", "GET"]));
    const body = received.map((r) => r.body).join("\n");
    expect(body).not.toContain(PASSWORD);
    expect(body).not.toContain(COLLECTOR_KEY);
  });
});
