// GET /metrics: what an operator's Prometheus scrapes, recorded per app instance.
import {
  createProxmoxStandin,
  generateCluster,
  type ProxmoxStandin,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncConnection } from "../syncs/coordinator.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

let app: TestApp;
let other: TestApp;
let standin: ProxmoxStandin;

beforeAll(async () => {
  [app, other] = await Promise.all([startTestApp(), startTestApp()]);
  standin = await createProxmoxStandin({ cluster: generateCluster({ nodes: 1, guests: 4 }) });
});
afterAll(async () => {
  await standin?.close();
  await app?.close();
  await other?.close();
});

const scrape = async (target: TestApp) => {
  const res = await fetch(`${target.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
};

describe("GET /metrics", () => {
  it("counts sync outcomes and durations per source, and hypervisor calls by status class", async () => {
    const connection = await saveStandinConnection(app.services, "PROXMOX", standin, "metered");
    await syncConnection(app.services, connection.id, { trigger: "MANUAL" }).done;
    const text = await scrape(app);
    expect(text).toMatch(
      /^hyperlens_sync_runs_total\{source="PROXMOX",outcome="SUCCESS",trigger="MANUAL"\} 1$/m,
    );
    expect(text).toMatch(
      /^hyperlens_sync_duration_seconds_count\{source="PROXMOX",outcome="SUCCESS"\} 1$/m,
    );
    const calls = text
      .split("\n")
      .filter((line) => line.startsWith("hyperlens_hypervisor_requests_total{"));
    expect(
      calls.some((l) => l.includes('source="PROXMOX"') && l.includes('status_class="2xx"')),
    ).toBe(true);
    // Another app in the same process keeps its own registry.
    expect(await scrape(other)).not.toMatch(/^hyperlens_sync_runs_total\{/m);
  });

  it("counts failed sign-ins and invalid tokens as auth failures", async () => {
    await app.graphql(
      'mutation { signIn(username: "nobody", password: "wrong password!") { __typename } }',
    );
    await app.graphql("{ viewer { __typename } }", undefined, {
      authorization: "Bearer not-a-real-token",
    });
    const text = await scrape(app);
    expect(text).toMatch(/^hyperlens_auth_failures_total\{reason="sign_in"\} 1$/m);
    expect(text).toMatch(/^hyperlens_auth_failures_total\{reason="bad_token"\} 1$/m);
  });

  it("times GraphQL operations by type and root field", async () => {
    await app.graphql("query Named { isSetupRequired }");
    const text = await scrape(app);
    expect(text).toMatch(
      /^hyperlens_graphql_operation_duration_seconds_count\{operation_type="query",root_field="isSetupRequired",has_errors="false"\} 1$/m,
    );
  });
});
