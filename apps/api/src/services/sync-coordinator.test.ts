// Draining on shutdown: running syncs get the grace period, then stop at their safe point; new
// syncs are refused with an error that says why.

import { createProxmoxStandin, generateCluster, type ProxmoxStandin } from "@hyperlens/standins";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import { syncConnection } from "./connection-runner.ts";
import { ShuttingDownError } from "./errors.ts";
import { createSyncCoordinator, drainSyncs } from "./sync-coordinator.ts";

let app: TestApp;
let standin: ProxmoxStandin;
let connectionId: string;

beforeAll(async () => {
  app = await startTestApp();
  standin = await createProxmoxStandin({ cluster: generateCluster({ nodes: 1, guests: 10 }) });
  const saved = await saveStandinConnection(app.services, "PROXMOX", standin, "draining");
  connectionId = saved.id;
});
afterAll(async () => {
  await standin?.close();
  await app?.close();
});

describe("draining syncs at shutdown", () => {
  it("lets a sync finish within the grace period", async () => {
    app.services.syncs = createSyncCoordinator();
    const sync = syncConnection(app.services, connectionId, { trigger: "MANUAL" });
    await sync.syncRunId;
    await drainSyncs(app.services.syncs, 60_000);
    expect((await sync.done).outcome).toBe("SUCCESS");
  });

  it("stops a sync still reading when the grace period ends, and refuses new ones", async () => {
    app.services.syncs = createSyncCoordinator();
    standin.faults.latencyMs = 200;
    try {
      const sync = syncConnection(app.services, connectionId, { trigger: "MANUAL" });
      await sync.syncRunId;
      await drainSyncs(app.services.syncs, 100);
      expect((await sync.done).outcome).toBe("CANCELLED");
    } finally {
      standin.faults.latencyMs = 0;
    }
    expect(() => syncConnection(app.services, connectionId, { trigger: "MANUAL" })).toThrow(
      ShuttingDownError,
    );
    const cookie = await app.signedInAs("viewer");
    const res = await app.graphql(
      "mutation($id: ID!) { syncConnection(id: $id) { id } }",
      { id: encodeGlobalID("Connection", connectionId) },
      { cookie },
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("SHUTTING_DOWN");
    expect(res.body.errors?.[0]?.message).toContain("shutting down");
  });
});
