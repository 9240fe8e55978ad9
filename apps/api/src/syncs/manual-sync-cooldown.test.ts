// Manual syncs of a connection cool down (issue 20): within the cool-down after its last run
// started, a manual request gets that run back, not a new read of the hypervisor — on every
// replica, since the last run is read from sync_runs. Scheduled syncs and joins are unaffected.
import { createProxmoxStandin, generateCluster } from "@hyperlens/standins/testing";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { startServer } from "../http/server.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { startTestApp, testConfig } from "../testing/test-app.ts";
import { createSyncCoordinator, syncConnection } from "./coordinator.ts";

type Run = {
  id: string;
  outcome: string;
  startedAt: string;
  manualSyncCooldown: {
    secondsSinceLastRun: number;
    nextManualSyncAt: string;
    message: string;
    messageText: { code: string; params: Record<string, unknown>; message: string };
  } | null;
  connection: { id: string };
};
const RUN =
  "id outcome startedAt manualSyncCooldown { secondsSinceLastRun nextManualSyncAt message messageText { code params message } } connection { id }";
const SYNC_ALL = `mutation { syncAll { ${RUN} } }`;
const SYNC = `mutation($id: ID!, $wait: Boolean) { syncConnection(id: $id, wait: $wait) { ${RUN} } }`;

const DEFAULT_COOLDOWN_MS = loadConfig({}).manualSyncCooldownMs;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two stand-ins, a connection to each, and a viewer allowed to sync (the default capabilities). */
async function world(cooldownMs: number) {
  const app = await startTestApp({ manualSyncCooldownMs: cooldownMs });
  const standins = await Promise.all([
    createProxmoxStandin({ cluster: generateCluster({ nodes: 1, guests: 4, seed: 1 }) }),
    createProxmoxStandin({ cluster: generateCluster({ nodes: 1, guests: 4, seed: 2 }) }),
  ]);
  const connections = await Promise.all(
    standins.map((s, i) => saveStandinConnection(app.services, "PROXMOX", s, `pve-${i}`)),
  );
  const cookie = await app.signedInAs("viewer");
  const call = async <T>(query: string, variables: Record<string, unknown> = {}) => {
    const res = await app.graphql<T>(query, variables, { cookie });
    if (!res.body.data) throw new Error(JSON.stringify(res.body));
    return res.body.data;
  };
  const runsOf = (connectionId: string) =>
    app.services.prisma.syncRun.findMany({ where: { connectionId } });
  const allFinished = async () => {
    for (let i = 0; i < 400; i++) {
      if ((await app.services.prisma.syncRun.count({ where: { outcome: "RUNNING" } })) === 0)
        return;
      await sleep(25);
    }
    throw new Error("the syncs did not finish");
  };
  const requestsReceived = () => standins.reduce((sum, s) => sum + s.stats.total, 0);
  const close = async () => {
    await Promise.all(standins.map((s) => s.close()));
    await app.close();
  };
  return { app, standins, connections, call, runsOf, allFinished, requestsReceived, close };
}

describe("the manual-sync cool-down, at the default 60 s", () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world(DEFAULT_COOLDOWN_MS);
  });
  afterAll(async () => w?.close());

  it("is 60 s unless configured", () => {
    expect(DEFAULT_COOLDOWN_MS).toBe(60_000);
  });

  it("five syncAll in a row start one run per connection", async () => {
    const answers: Run[][] = [];
    for (let i = 0; i < 5; i++) answers.push((await w.call<{ syncAll: Run[] }>(SYNC_ALL)).syncAll);
    await w.allFinished();
    // The one run of each connection did read its hypervisor.
    for (const standin of w.standins) expect(standin.stats.total).toBeGreaterThan(0);
    for (const connection of w.connections) {
      expect(await w.runsOf(connection.id)).toHaveLength(1);
    }
    // Every answer names the one run of each connection (joined while running, handed back after).
    const first = answers[0]?.map((r) => r.id).sort();
    for (const answer of answers) expect(answer.map((r) => r.id).sort()).toEqual(first);
  });

  it("answers a manual sync within the cool-down with the last run and when the next is possible, reading nothing", async () => {
    await w.allFinished();
    const before = w.requestsReceived();
    const connection = w.connections[0];
    if (!connection) throw new Error("no connection");
    const [last] = await w.runsOf(connection.id);
    const { syncConnection: run } = await w.call<{ syncConnection: Run }>(SYNC, {
      id: encodeGlobalID("Connection", connection.id),
      wait: true,
    });
    expect(run.id).toBe(encodeGlobalID("SyncRun", last?.id ?? ""));
    expect(run.manualSyncCooldown).not.toBeNull();
    const next = new Date(run.startedAt).getTime() + DEFAULT_COOLDOWN_MS;
    expect(run.manualSyncCooldown?.nextManualSyncAt).toBe(new Date(next).toISOString());
    expect(run.manualSyncCooldown?.message).toMatch(
      /^Synced \d+ s ago; the next manual sync of this connection is possible at \S+Z\. This is the last run\.$/,
    );
    // docs/behaviour.md §11.4: the same sentence as a code, for the viewer's language.
    expect(run.manualSyncCooldown?.messageText).toEqual({
      code: "manualSyncCooldown",
      params: {
        seconds: run.manualSyncCooldown?.secondsSinceLastRun,
        at: run.manualSyncCooldown?.nextManualSyncAt,
      },
      message: run.manualSyncCooldown?.message,
    });
    expect(w.requestsReceived()).toBe(before);
    expect(await w.runsOf(connection.id)).toHaveLength(1);
  });

  it("holds on another replica of the same database (it is read from sync_runs, not memory)", async () => {
    const replica = await startServer(
      { ...w.app.services, syncs: createSyncCoordinator() },
      { ...testConfig(), host: "127.0.0.1", port: 0, manualSyncCooldownMs: DEFAULT_COOLDOWN_MS },
    );
    try {
      const cookie = await w.app.signedInAs("viewer-b");
      const res = await fetch(`${replica.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ query: SYNC_ALL }),
      });
      const body = (await res.json()) as { data: { syncAll: Run[] } };
      expect(body.data.syncAll.every((r) => r.manualSyncCooldown !== null)).toBe(true);
      await w.allFinished();
      for (const connection of w.connections) {
        expect(await w.runsOf(connection.id)).toHaveLength(1);
      }
    } finally {
      await replica.close();
    }
  });

  it("leaves scheduled syncs alone", async () => {
    const connection = w.connections[1];
    if (!connection) throw new Error("no connection");
    await syncConnection(w.app.services, connection.id, { trigger: "SCHEDULE" }).done;
    expect(await w.runsOf(connection.id)).toHaveLength(2);
  });
});

describe("the manual-sync cool-down, set to 1 s", () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    w = await world(1000);
  });
  afterAll(async () => w?.close());

  it("starts a new run once the cool-down after the last run's start has passed", async () => {
    const connection = w.connections[0];
    if (!connection) throw new Error("no connection");
    const id = encodeGlobalID("Connection", connection.id);
    const first = (await w.call<{ syncConnection: Run }>(SYNC, { id, wait: true })).syncConnection;
    const wait = new Date(first.startedAt).getTime() + 1000 - Date.now();
    if (wait > 0) await sleep(wait + 50);
    const second = (await w.call<{ syncConnection: Run }>(SYNC, { id, wait: true })).syncConnection;
    expect(second.id).not.toBe(first.id);
    expect(second.manualSyncCooldown).toBeNull();
    expect(await w.runsOf(connection.id)).toHaveLength(2);
  });
});
