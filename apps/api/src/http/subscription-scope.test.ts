// An open subscription follows its viewer's connection scope as it changes: a grant taken away or
// a connection moved between groups applies to the next event, over WebSocket and SSE alike. The
// periodic re-check is set far beyond the test, so only the announcement of the change can do it
// (docs/behaviour.md §7.17).
import { rawTransaction } from "@hyperlens/db";
import { appendInventoryEvents } from "@hyperlens/sync";
import { decodeGlobalID, encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveConnection } from "../services/connections.ts";
import { type OpenSubscription, openSse, openWebSocket } from "../testing/open-subscriptions.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const RECHECK_MS = 10 * 60_000;
const WAIT_MS = 5_000;
const PROGRESS = "subscription { syncProgress { listKey } }";
const FEED = "subscription { inventoryChanged { subjectName } }";

let app: TestApp;
let admin: string;
beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin({ subscriptionRecheckMs: RECHECK_MS }));
});
afterAll(async () => app?.close());

async function asAdmin<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await app.graphql<T>(query, variables, { cookie: admin });
  if (res.body.errors || !res.body.data) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

async function createGroup(name: string): Promise<string> {
  const data = await asAdmin<{ createConnectionGroup: { data: { id: string } } }>(
    `mutation($n: String!) { createConnectionGroup(name: $n) {
      ... on MutationCreateConnectionGroupSuccess { data { id } } } }`,
    { n: name },
  );
  return data.createConnectionGroup.data.id;
}

async function createConnection(name: string): Promise<string> {
  const connection = await saveConnection(
    app.services.prisma,
    app.services.secrets,
    "PROXMOX",
    { name, url: `https://${name}.invalid`, username: "scope@pve", secret: "unused" },
    null,
    app.services.targetPolicy,
  );
  return connection.id;
}

async function setGroups(connectionId: string, groupIds: string[]) {
  await asAdmin(
    `mutation($c: ID!, $g: [ID!]!) { setConnectionGroups(connectionId: $c, groupIds: $g) { __typename } }`,
    { c: encodeGlobalID("Connection", connectionId), g: groupIds },
  );
}

async function grant(userId: string, groupIds: string[]) {
  await asAdmin(
    `mutation($u: ID!, $g: [ID!]!) { setUserConnectionGrants(userId: $u, allConnections: false, groupIds: $g) { __typename } }`,
    { u: userId, g: groupIds },
  );
}

/** Publishes one progress step of `connectionId` carrying `marker`. */
async function publishProgress(connectionId: string, marker: string) {
  app.services.events.publish("sync:all", {
    connectionId,
    syncRunId: null,
    at: new Date().toISOString(),
    event: { type: "list", key: marker, status: "ok" },
  });
}

/** Appends a change-feed event of `connectionId` named `marker` and announces it, as a sync does. */
async function appendEvent(connectionId: string, marker: string) {
  await rawTransaction(app.services.prisma, (sql) =>
    appendInventoryEvents(sql, [
      { type: "VM_ADDED", connectionId, subjectName: marker, data: {}, at: new Date() },
    ]),
  );
  app.services.events.publish("feed:advanced", { connectionId });
}

/** A subscription whose scope is checked, and how to make it send an event carrying a marker. */
interface Subscribed {
  name: string;
  query: string;
  send: (connectionId: string, marker: string) => Promise<void>;
}

const FEED_SUBSCRIPTION: Subscribed = { name: "inventoryChanged", query: FEED, send: appendEvent };
const SUBSCRIPTIONS: Subscribed[] = [
  { name: "syncProgress", query: PROGRESS, send: publishProgress },
  FEED_SUBSCRIPTION,
];

/** Sends events of `connectionId` carrying `marker` until every stream shows one. */
async function sendUntilSeen(
  subscribed: Subscribed,
  streams: OpenSubscription[],
  connectionId: string,
  marker: string,
): Promise<boolean> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    await subscribed.send(connectionId, marker);
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (streams.every((s) => s.text().includes(marker))) return true;
  }
  return false;
}

async function tenantUserId(username: string): Promise<string> {
  const users = await asAdmin<{ users: { id: string; username: string }[] }>(
    "{ users { id username } }",
    {},
  );
  const id = users.users.find((u) => u.username === username)?.id;
  if (!id) throw new Error(`no user ${username}`);
  return id;
}

describe("open subscriptions follow the viewer's connection scope (docs/behaviour.md §7.17)", () => {
  describe.each(SUBSCRIPTIONS)("$name", (subscribed) => {
    const named = (name: string) => `${subscribed.name}-${name}`;
    const until = (streams: OpenSubscription[], connectionId: string, marker: string) =>
      sendUntilSeen(subscribed, streams, connectionId, marker);

    it("a grant moved from one group to another applies to the next event, over both transports", async () => {
      const [alpha, bravo] = [await createGroup(named("alpha")), await createGroup(named("bravo"))];
      const [inAlpha, inBravo] = [
        await createConnection(named("alpha-pve")),
        await createConnection(named("bravo-pve")),
      ];
      await setGroups(inAlpha, [alpha]);
      await setGroups(inBravo, [bravo]);
      const cookie = await app.signedInAs(named("tenant"));
      const userId = await tenantUserId(named("tenant"));
      await grant(userId, [alpha]);
      const streams = [
        await openSse(app.url, { cookie }, subscribed.query),
        await openWebSocket(app.url, { cookie }, subscribed.query),
      ];
      try {
        expect(await until(streams, inAlpha, "alpha-before")).toBe(true);
        await grant(userId, [bravo]);
        expect(await until(streams, inBravo, "bravo-after")).toBe(true);
        await subscribed.send(inAlpha, "alpha-after");
        expect(await until(streams, inBravo, "bravo-last")).toBe(true);
        for (const stream of streams) expect(stream.text()).not.toContain("alpha-after");
      } finally {
        for (const stream of streams) stream.close();
      }
    });

    it("a connection put into the viewer's group is heard at once, one taken out no longer", async () => {
      const group = await createGroup(named("charlie"));
      const [leaving, joining] = [
        await createConnection(named("leaving-pve")),
        await createConnection(named("joining-pve")),
      ];
      await setGroups(leaving, [group]);
      const cookie = await app.signedInAs(named("charlie-tenant"));
      await grant(await tenantUserId(named("charlie-tenant")), [group]);
      const streams = [
        await openSse(app.url, { cookie }, subscribed.query),
        await openWebSocket(app.url, { cookie }, subscribed.query),
      ];
      try {
        expect(await until(streams, leaving, "leaving-before")).toBe(true);
        await setGroups(leaving, []);
        await setGroups(joining, [group]);
        // Heard only once the re-check that read both changes is in effect.
        expect(await until(streams, joining, "joined")).toBe(true);
        await subscribed.send(leaving, "left");
        expect(await until(streams, joining, "joining-last")).toBe(true);
        for (const stream of streams) expect(stream.text()).not.toContain("left");
      } finally {
        for (const stream of streams) stream.close();
      }
    });
  });

  it("deleting a group tells its users' and token creators' open subscriptions to check again", async () => {
    const group = await createGroup("scope-delta");
    await app.signedInAs("scope-delta-tenant");
    const userId = await tenantUserId("scope-delta-tenant");
    await grant(userId, [group]);
    const told = new Promise<void>((resolve) => {
      const stop = app.services.credentialChanges.watch(decodeGlobalID(userId).id, () => {
        stop();
        resolve();
      });
    });
    await asAdmin("mutation($id: ID!) { deleteConnectionGroup(id: $id) }", { id: group });
    const wasTold = await Promise.race([
      told.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), WAIT_MS)),
    ]);
    expect(wasTold).toBe(true);
  });

  it("inventoryChanged: a revoked token's stream ends at once, over both transports", async () => {
    const group = await createGroup("feed-echo");
    const connection = await createConnection("feed-echo-pve");
    await setGroups(connection, [group]);
    const created = await asAdmin<{
      createApiToken: { data: { token: string; apiToken: { id: string } } };
    }>(
      `mutation($g: [ID!]) { createApiToken(name: "feed-live", capabilities: [VIEW_INVENTORY], allConnections: false, groupIds: $g) {
        ... on MutationCreateApiTokenSuccess { data { token apiToken { id } } } } }`,
      { g: [group] },
    );
    const { token, apiToken } = created.createApiToken.data;
    const streams = [
      await openSse(app.url, { token }, FEED),
      await openWebSocket(app.url, { token }, FEED),
    ];
    try {
      expect(await sendUntilSeen(FEED_SUBSCRIPTION, streams, connection, "echo-before")).toBe(true);
      await asAdmin("mutation($id: ID!) { revokeApiToken(id: $id) }", { id: apiToken.id });
      const [sse, ws] = streams;
      expect(await sse?.endsWithin(WAIT_MS)).toBe(true);
      expect(sse?.text()).toContain("UNAUTHENTICATED");
      expect(await ws?.endsWithin(WAIT_MS)).toBe(true);
      expect(ws?.text()).toContain("close 4401");
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});
