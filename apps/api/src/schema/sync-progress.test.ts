// Live sync progress over GraphQL WebSocket, with the same capabilities as queries.
import { createProxmoxStandin, demoCluster } from "@hyperlens/standins/testing";
import { createClient } from "graphql-ws";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { eachFileConnectedTo } from "../testing/standin-connections.ts";
import { startTestApp } from "../testing/test-app.ts";

const SUBSCRIBE =
  "subscription { syncProgress { type phase listKey outcome counts { added } messageTexts { code message } } }";
const CREATE_TOKEN = `mutation($caps: [Capability!]!) { createApiToken(name: "ws", capabilities: $caps) {
  ... on MutationCreateApiTokenSuccess { data { token } } } }`;

const pve = eachFileConnectedTo(
  "PROXMOX",
  "lab",
  () => createProxmoxStandin({ cluster: demoCluster(), version: "9.1" }),
  { startApp: () => startTestApp({ subscriptionRecheckMs: 200 }) },
);
let admin: string;
beforeAll(async () => {
  admin = await pve.app.signedInAs("admin", { isAdmin: true });
});

async function tokenWith(capabilities: string[]) {
  const res = await pve.app.graphql<{ createApiToken: { data: { token: string } } }>(
    CREATE_TOKEN,
    { caps: capabilities },
    { cookie: admin },
  );
  const token = res.body.data?.createApiToken.data.token;
  if (!token) throw new Error(JSON.stringify(res.body));
  return token;
}

function wsClient(token: string) {
  return createClient({
    url: `${pve.app.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
}

/** The first answer to a subscription made with `token`, as text; the client is closed after it. */
async function firstAnswer(token: string): Promise<string> {
  const client = wsClient(token);
  const outcome = await new Promise<string>((resolve) => {
    client.subscribe(
      { query: SUBSCRIBE },
      {
        // Refusals arrive as a result with errors (or as an error), never as data.
        next: (result) => resolve(JSON.stringify(result)),
        error: (error) => resolve(JSON.stringify(error)),
        complete: () => resolve("complete"),
      },
    );
  });
  await client.dispose();
  return outcome;
}

/** Every event a view-only subscriber receives while one sync of the connection runs, in order. */
async function eventsOfOneSync() {
  type Event = {
    type: string;
    listKey: string | null;
    outcome: string | null;
    messageTexts: { code: string; message: string }[] | null;
  };
  const client = wsClient(await tokenWith(["VIEW_INVENTORY"]));
  const events: Event[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const unsubscribe = client.subscribe<{ syncProgress: Event }>(
      { query: SUBSCRIBE },
      {
        next: ({ data }) => {
          if (!data) return;
          events.push(data.syncProgress);
          if (data.syncProgress.type === "finished" || data.syncProgress.type === "failed") {
            unsubscribe();
            resolve();
          }
        },
        error: reject,
        complete: () => resolve(),
      },
    );
  });
  // Let the subscription register before the sync starts.
  await new Promise((r) => setTimeout(r, 300));
  await pve.sync();
  await done;
  await client.dispose();
  return events;
}

describe("syncProgress", () => {
  it("streams the events of a real sync in order, ending with finished", async () => {
    const events = await eventsOfOneSync();
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("started");
    expect(types).toContain("list");
    expect(types.at(-1)).toBe("finished");
    expect(types.indexOf("phase")).toBeGreaterThan(0);
  });

  it("a finished event carries its message as codes (docs/behaviour.md §11.4)", async () => {
    const events = await eventsOfOneSync();
    const finished = events.at(-1);
    const codes = finished?.messageTexts?.map((text) => text.code);
    expect(codes?.[0]).toBe("syncSummary");
    expect(codes).toContain("syncListSkipped");
    expect(events.filter((e) => e.type === "list").every((e) => e.messageTexts === null)).toBe(
      true,
    );
  });

  it("reports each list of a sync exactly once", async () => {
    const events = await eventsOfOneSync();
    const listKeys = events.filter((e) => e.type === "list").map((e) => e.listKey);
    const stored = await pve.services.prisma.virtualMachine.findMany({
      where: { connectionId: pve.connectionId },
      distinct: ["listKey"],
      select: { listKey: true },
    });
    expect(listKeys.length).toBeGreaterThan(0);
    expect(new Set(listKeys).size).toBe(listKeys.length);
    for (const { listKey } of stored) expect(listKeys).toContain(listKey);
  });

  it("refuses a subscriber without the view capability", async () => {
    const outcome = await firstAnswer(await tokenWith(["MANAGE_USERS"]));
    expect(outcome).toContain("FORBIDDEN");
    expect(outcome).not.toContain('"syncProgress":{');
  });

  it("refuses an unknown token", async () => {
    expect(await firstAnswer("hlk_not-a-real-token")).toContain("UNAUTHENTICATED");
  });

  it("ends a subscription when its token is revoked", async () => {
    const token = await tokenWith(["VIEW_INVENTORY"]);
    const client = wsClient(token);
    const ended = new Promise<string>((resolve) => {
      client.subscribe(
        { query: SUBSCRIBE },
        {
          next: () => {},
          error: (e) => resolve(String((e as { code?: number }).code ?? JSON.stringify(e))),
          complete: () => resolve("complete"),
        },
      );
    });
    await new Promise((r) => setTimeout(r, 300));
    const row = await pve.services.prisma.apiToken.findFirstOrThrow({
      orderBy: { createdAt: "desc" },
    });
    await pve.services.prisma.apiToken.update({
      where: { id: row.id },
      data: { revokedAt: new Date() },
    });
    expect(await ended).toBe("4401");
    await client.dispose();
  });

  // Last: it empties the stand-in.
  it("a guard event carries the guard's sentence as a code (docs/behaviour.md §11.4)", async () => {
    await pve.sync();
    const [kept, ...gone] = pve.standin.cluster.guests;
    expect(kept).toBeDefined();
    for (const guest of gone) pve.standin.cluster.removeGuest(guest.vmid);
    const guard = (await eventsOfOneSync()).find((e) => e.type === "guard");
    expect(guard?.messageTexts?.map((text) => text.code)).toEqual(["syncGuardFired"]);
  });
});
