// The change feed through GraphQL: paging in sequence order, filters, and the live subscription
// over both transports, each seen in the caller's scope only.
import type { NeutralVm } from "@hyperlens/shared";
import { runSync } from "@hyperlens/sync";
import { decodeGlobalID, encodeGlobalID } from "@pothos/plugin-relay";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { saveConnection } from "../services/connections.ts";
import { neutralVm } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

let app: TestApp;
let admin: string;
const connections = { alpha: "", bravo: "" };
let alphaToken = "";

async function asAdmin<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await app.graphql<T>(query, variables, { cookie: admin });
  if (res.body.errors || !res.body.data) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

/** A Proxmox connection in a group of its own; returns the connection id. */
async function connectionInGroup(name: string): Promise<{ connectionId: string; groupId: string }> {
  const connection = await saveConnection(
    app.services.prisma,
    app.services.secrets,
    "PROXMOX",
    { name, url: `https://${name}.invalid`, username: "feed@pve", secret: "unused" },
    null,
    app.services.targetPolicy,
  );
  const group = await asAdmin<{ createConnectionGroup: { data: { id: string } } }>(
    `mutation($n: String!) { createConnectionGroup(name: $n) {
      ... on MutationCreateConnectionGroupSuccess { data { id } } } }`,
    { n: `${name}-group` },
  );
  await asAdmin(
    `mutation($c: ID!, $g: [ID!]!) { setConnectionGroups(connectionId: $c, groupIds: $g) { __typename } }`,
    { c: encodeGlobalID("Connection", connection.id), g: [group.createConnectionGroup.data.id] },
  );
  return {
    connectionId: connection.id,
    groupId: group.createConnectionGroup.data.id,
  };
}

/** Syncs `vms` into the connection, announcing the feed as a server's sync does. */
async function sync(connectionId: string, vms: NeutralVm[]) {
  await runSync({
    prisma: app.services.prisma,
    connectionId,
    source: "PROXMOX",
    trigger: "MANUAL",
    read: async () => ({ lists: [{ key: "vms", status: "ok", vms }] }),
    onFeedAdvanced: () => app.services.events.publish("feed:advanced", { connectionId }),
  });
}

beforeAll(async () => {
  // No poll in this file's server: the live feed must arrive through its notices.
  ({ app, admin } = await startTestAppAsAdmin({ feedPollMs: 3_600_000 }));
  const alpha = await connectionInGroup("alpha");
  const bravo = await connectionInGroup("bravo");
  connections.alpha = alpha.connectionId;
  connections.bravo = bravo.connectionId;
  const token = await asAdmin<{ createApiToken: { data: { token: string } } }>(
    `mutation($g: [ID!]) { createApiToken(name: "feed", capabilities: [VIEW_INVENTORY], allConnections: false, groupIds: $g) {
      ... on MutationCreateApiTokenSuccess { data { token } } } }`,
    { g: [alpha.groupId] },
  );
  alphaToken = token.createApiToken.data.token;
});
afterAll(async () => app?.close());

interface FeedNode {
  sequence: string;
  type: string;
  subjectName: string | null;
  connectionId: string;
}
const NODE = "sequence type subjectName connectionId";

async function page(
  variables: Record<string, unknown>,
  headers = { authorization: `Bearer ${alphaToken}` },
) {
  const res = await app.graphql<{
    inventoryEvents: {
      edges: { cursor: string; node: FeedNode }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  }>(
    `query($after: String, $first: Int, $filter: InventoryEventFilter) {
      inventoryEvents(after: $after, first: $first, filter: $filter) {
        edges { cursor node { ${NODE} } } pageInfo { hasNextPage endCursor } } }`,
    variables,
    headers,
  );
  return res.body;
}

describe("paging the feed (docs/behaviour.md §14.6)", () => {
  it("pages in sequence order with only the caller's connections, and `after` the last cursor returns only newer events", async () => {
    await sync(connections.bravo, [neutralVm("b1", { name: "bravo-1" })]);
    await sync(connections.alpha, [
      neutralVm("a1", { name: "alpha-1" }),
      neutralVm("a2", { name: "alpha-2" }),
    ]);
    const seen: FeedNode[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i += 1) {
      const body = await page({ after, first: 2 });
      const connection = body.data?.inventoryEvents;
      if (!connection) throw new Error(JSON.stringify(body));
      seen.push(...connection.edges.map((e) => e.node));
      after = connection.pageInfo.endCursor;
      if (!connection.pageInfo.hasNextPage) break;
    }
    expect(seen.filter((e) => e.type === "VM_ADDED").map((e) => e.subjectName)).toEqual([
      "alpha-1",
      "alpha-2",
    ]);
    expect(new Set(seen.map((e) => decodeGlobalID(e.connectionId).id))).toEqual(
      new Set([connections.alpha]),
    );
    const sequences = seen.map((e) => BigInt(e.sequence));
    expect(sequences).toEqual([...sequences].sort((a, b) => (a < b ? -1 : 1)));

    const caughtUp = await page({ after });
    expect(caughtUp.data?.inventoryEvents.edges).toEqual([]);
    expect(caughtUp.data?.inventoryEvents.pageInfo.endCursor).toBe(after);

    await sync(connections.alpha, [
      neutralVm("a1", { name: "alpha-1", cpuCount: 16 }),
      neutralVm("a2", { name: "alpha-2" }),
    ]);
    const newer = await page({ after });
    expect(newer.data?.inventoryEvents.edges.map((e) => e.node.type)).toEqual(["VM_CHANGED"]);
  });

  it("filters by type, connection, VM and time; a connection outside the scope filters to nothing", async () => {
    const vm = await app.services.prisma.virtualMachine.findFirstOrThrow({
      where: { connectionId: connections.alpha, externalId: "a2" },
    });
    const byVm = await page({
      filter: { vmId: encodeGlobalID("VirtualMachine", vm.id), types: ["VM_ADDED"] },
    });
    expect(byVm.data?.inventoryEvents.edges.map((e) => e.node.subjectName)).toEqual(["alpha-2"]);
    const ofBravo = await page({
      filter: { connectionIds: [encodeGlobalID("Connection", connections.bravo)] },
    });
    expect(ofBravo.data?.inventoryEvents.edges).toEqual([]);
    const adminSeesBravo = await page(
      { filter: { connectionIds: [encodeGlobalID("Connection", connections.bravo)] } },
      { cookie: admin } as never,
    );
    expect(adminSeesBravo.data?.inventoryEvents.edges.map((e) => e.node.subjectName)).toContain(
      "bravo-1",
    );
    const future = await page({ filter: { since: "2999-01-01T00:00:00Z" } });
    expect(future.data?.inventoryEvents.edges).toEqual([]);
  });

  it("a cursor it did not hand out, or paging backwards, is a clear error", async () => {
    const bad = await page({ after: "not-a-cursor" });
    expect(bad.errors?.[0]?.message).toMatch(/Not a change-feed cursor/);
    const tooMany = await page({ first: 100_000 });
    expect(tooMany.errors?.[0]?.message).toMatch(/first must be between 0 and 500/);
  });
});

const SUBSCRIBE = `subscription { inventoryChanged { ${NODE} } }`;

/** Collects inventoryChanged events over a WebSocket until `count` arrived. */
function overWebSocket(count: number) {
  const client = createClient({
    url: `${app.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${alphaToken}` },
    retryAttempts: 0,
  });
  const events: FeedNode[] = [];
  let opened!: () => void;
  const isOpen = new Promise<void>((resolve) => {
    opened = resolve;
  });
  client.on("connected", () => opened());
  const done = new Promise<FeedNode[]>((resolve, reject) => {
    const unsubscribe = client.subscribe<{ inventoryChanged: FeedNode }>(
      { query: SUBSCRIBE },
      {
        next: ({ data }) => {
          if (data) events.push(data.inventoryChanged);
          if (events.length >= count) {
            unsubscribe();
            resolve(events);
          }
        },
        error: reject,
        complete: () => resolve(events),
      },
    );
  }).finally(() => client.dispose());
  return { isOpen, done };
}

/** Collects inventoryChanged events over server-sent events until `count` arrived. */
async function overSse(count: number) {
  const abort = new AbortController();
  const res = await fetch(`${app.url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      authorization: `Bearer ${alphaToken}`,
    },
    body: JSON.stringify({ query: SUBSCRIBE }),
    signal: abort.signal,
  });
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`SSE refused: ${res.status}`);
  const done = (async () => {
    const events: FeedNode[] = [];
    const decoder = new TextDecoder();
    let text = "";
    while (events.length < count) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
      const messages = text.split("\n\n");
      text = messages.pop() ?? "";
      for (const message of messages) {
        const data = message.split("\n").find((line) => line.startsWith("data:"));
        const node = data && JSON.parse(data.slice(5)).data?.inventoryChanged;
        if (node) events.push(node);
      }
    }
    abort.abort();
    return events;
  })();
  return { done };
}

describe("the live feed (docs/behaviour.md §14.7)", () => {
  it("a subscriber granted one group gets its events, in order, and none of the other's — over both transports", async () => {
    const ws = overWebSocket(2);
    await ws.isOpen;
    const sse = await overSse(2);
    // Both subscriptions have read their starting point once a first poll of the server is done.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sync(connections.bravo, [
      neutralVm("b1", { name: "bravo-1" }),
      neutralVm("b2", { name: "bravo-2" }),
    ]);
    await sync(connections.alpha, [
      neutralVm("a1", { name: "alpha-1", cpuCount: 16 }),
      neutralVm("a2", { name: "alpha-2" }),
      neutralVm("a3", { name: "alpha-3" }),
    ]);
    await sync(connections.alpha, [
      neutralVm("a1", { name: "alpha-1", cpuCount: 16 }),
      neutralVm("a2", { name: "alpha-2", cpuCount: 8 }),
      neutralVm("a3", { name: "alpha-3" }),
    ]);
    const expected = [
      ["VM_ADDED", "alpha-3"],
      ["VM_CHANGED", "alpha-2"],
    ];
    for (const received of [await ws.done, await sse.done]) {
      expect(received.map((e) => [e.type, e.subjectName])).toEqual(expected);
      const sequences = received.map((e) => BigInt(e.sequence));
      expect(sequences).toEqual([...sequences].sort((a, b) => (a < b ? -1 : 1)));
    }
  });
});
