// Draining on shutdown: running syncs get the grace period, then stop at their safe point; new
// syncs are refused with an error that says why.

import { createProxmoxStandin, generateCluster } from "@hyperlens/standins/testing";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { describe, expect, it } from "vitest";
import { ShuttingDownError } from "../errors.ts";
import { eachFileConnectedTo } from "../testing/standin-connections.ts";
import { createSyncCoordinator, syncConnection } from "./coordinator.ts";

const pve = eachFileConnectedTo("PROXMOX", "draining", () =>
  createProxmoxStandin({ cluster: generateCluster({ nodes: 1, guests: 10 }) }),
);

describe("draining syncs at shutdown", () => {
  it("lets a sync finish within the grace period", async () => {
    pve.services.syncs = createSyncCoordinator();
    const sync = syncConnection(pve.services, pve.connectionId, { trigger: "MANUAL" });
    await sync.syncRunId;
    await pve.services.syncs.drain(60_000);
    expect((await sync.done).outcome).toBe("SUCCESS");
  });

  it("stops a sync still reading when the grace period ends, and refuses new ones", async () => {
    pve.services.syncs = createSyncCoordinator();
    pve.standin.faults.latencyMs = 200;
    try {
      const sync = syncConnection(pve.services, pve.connectionId, { trigger: "MANUAL" });
      await sync.syncRunId;
      await pve.services.syncs.drain(100);
      expect((await sync.done).outcome).toBe("CANCELLED");
    } finally {
      pve.standin.faults.latencyMs = 0;
    }
    expect(() => syncConnection(pve.services, pve.connectionId, { trigger: "MANUAL" })).toThrow(
      ShuttingDownError,
    );
    const cookie = await pve.app.signedInAs("viewer");
    const res = await pve.app.graphql(
      "mutation($id: ID!) { syncConnection(id: $id) { id } }",
      { id: encodeGlobalID("Connection", pve.connectionId) },
      { cookie },
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("SHUTTING_DOWN");
    expect(res.body.errors?.[0]?.message).toContain("shutting down");
  });
});
