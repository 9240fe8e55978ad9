// A real sync's change feed reaches a webhook receiver end to end (docs/behaviour.md §14.22–§14.25):
// the receiver verifies every signature as docs/api.md tells receivers to, de-duplicates by event
// id, and sees every event of the sync exactly once, in order — through three 500s and a restart of
// Hyperlens in the middle of the retry backoff, on the same database.
import {
  createProxmoxStandin,
  generateCluster,
  type ProxmoxStandin,
  qemuGuest,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhook } from "../services/webhooks.ts";
import { syncConnection } from "../syncs/coordinator.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import {
  createLastingDatabase,
  type LastingDatabase,
  startTestApp,
  type TestApp,
} from "../testing/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../testing/webhook-receiver.ts";

// Retries wait 1.5 s, 3 s, then 6 s: full jitter drawn at its top, so the backoff after the third
// 500 is long enough to stop the server in.
const WEBHOOKS = { schedule: { baseMs: 1_500, capMs: 6_000 }, random: () => 0.999_999 };
// No poll: deliveries start from the sync's notice, or from a retry falling due.
const CONFIG = { feedPollMs: 3_600_000 };

let lasting: LastingDatabase;
let standin: ProxmoxStandin;
let receiver: WebhookReceiver;
let app: TestApp | undefined;

beforeAll(async () => {
  lasting = await createLastingDatabase();
  standin = await createProxmoxStandin({ cluster: generateCluster({ nodes: 1, guests: 4 }) });
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await standin?.close();
  await lasting?.drop();
});

const start = () => startTestApp(CONFIG, { lasting, webhooks: WEBHOOKS });

interface FeedEvent {
  id: string;
  sequence: string;
  type: string;
  subjectName: string | null;
}

/** Every event of the change feed after `after`, as an administrator pages it over GraphQL. */
async function feedAfter(on: TestApp, cookie: string, after: string | null) {
  const events: FeedEvent[] = [];
  for (;;) {
    const res = await on.graphql<{
      inventoryEvents: {
        edges: { node: FeedEvent }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
    }>(
      `query($after: String) { inventoryEvents(after: $after, first: 50) {
        edges { node { id sequence type subjectName } } pageInfo { hasNextPage endCursor } } }`,
      { after },
      { cookie },
    );
    const page = res.body.data?.inventoryEvents;
    if (!page) throw new Error(JSON.stringify(res.body));
    events.push(...page.edges.map((e) => e.node));
    after = page.pageInfo.endCursor;
    if (!page.pageInfo.hasNextPage) return { events, endCursor: after };
  }
}

/** What the receiver accepted from the `from`-th distinct event on, as the feed lists events. */
function received(from = 0): FeedEvent[] {
  return receiver.events.slice(from).map((e) => ({
    id: e.id,
    sequence: String(e.sequence),
    type: e.type,
    subjectName: (e.body.subject as { name: string | null } | null)?.name ?? null,
  }));
}

describe("a sync's events delivered to a webhook (docs/behaviour.md §14.23, §14.25)", () => {
  it("every event once, in order, through three 500s and a restart in the backoff; then a second sync's add and removal", async () => {
    app = await start();
    const admin = await app.signedInAs("admin", { isAdmin: true });
    const connection = await saveStandinConnection(app.services, "PROXMOX", standin, "pve");
    let secret = "";
    receiver = await startWebhookReceiver(
      () => secret,
      (request) => (request <= 3 ? 500 : 200),
    );
    const created = await createWebhook(
      app.services.prisma,
      app.services.secrets,
      app.services.targetPolicy,
      { url: receiver.url },
      null,
    );
    secret = created.secret;
    const endpointId = created.endpoint.id;
    const endpointRow = () => {
      if (!app) throw new Error("no server is running");
      return app.services.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    };

    const first = await syncConnection(app.services, connection.id, { trigger: "MANUAL" }).done;
    expect(first.outcome).toBe("SUCCESS");
    const { events: synced, endCursor } = await feedAfter(app, admin, null);
    expect(synced.filter((e) => e.type === "VM_ADDED")).toHaveLength(4);

    // The third 500 is recorded with its backoff; the server stops before the retry falls due.
    await expect
      .poll(
        async () => {
          const row = await endpointRow();
          return { attempt: row.attempt, leaseHolder: row.leaseHolder };
        },
        { timeout: 20_000 },
      )
      .toEqual({ attempt: 3, leaseHolder: null });
    const waiting = await endpointRow();
    await app.close();
    app = undefined;
    expect(receiver.requests).toBe(3);
    expect(receiver.events).toEqual([]);

    app = await start();
    await receiver.waitFor(synced.length, 30_000);
    expect(receiver.badSignatures).toBe(0);
    expect(received()).toEqual(synced);
    // Deliveries are recorded a batch at a time: wait for the cursor to reach the last one.
    await expect
      .poll(async () => String((await endpointRow()).cursor), { timeout: 10_000 })
      .toBe(synced.at(-1)?.sequence);
    const firstEventLog = await app.services.prisma.webhookDelivery.findMany({
      where: { endpointId, eventId: synced[0]?.id },
      orderBy: { attempt: "asc" },
    });
    expect(firstEventLog.map((d) => [d.attempt, d.outcome, d.statusCode])).toEqual([
      [1, "FAILED", 500],
      [2, "FAILED", 500],
      [3, "FAILED", 500],
      [4, "DELIVERED", 200],
    ]);
    // The restarted server waited out the backoff the stopped one had begun.
    expect(firstEventLog[3]?.at.getTime()).toBeGreaterThanOrEqual(
      waiting.nextAttemptAt?.getTime() ?? Number.POSITIVE_INFINITY,
    );

    const [gone] = standin.cluster.guestsOn("pve1");
    if (!gone) throw new Error("the stand-in has no guest");
    standin.cluster.removeGuest(gone.vmid);
    standin.cluster.addGuest(qemuGuest({ vmid: 900, name: "added-later", node: "pve1" }));
    const second = await syncConnection(app.services, connection.id, { trigger: "MANUAL" }).done;
    expect(second.outcome).toBe("SUCCESS");
    const admin2 = await app.signedInAs("admin-after-restart", { isAdmin: true });
    const { events: changed } = await feedAfter(app, admin2, endCursor);
    expect(changed.map((e) => [e.type, e.subjectName])).toEqual(
      expect.arrayContaining([
        ["VM_REMOVED", gone.name],
        ["VM_ADDED", "added-later"],
      ]),
    );
    expect(changed.filter((e) => e.type.startsWith("VM_"))).toHaveLength(2);
    await receiver.waitFor(synced.length + changed.length, 30_000);
    // Give a stray extra delivery the chance to show.
    await app.services.webhooks.runOnce();
    expect(receiver.badSignatures).toBe(0);
    expect(received(synced.length)).toEqual(changed);
    expect(receiver.events).toHaveLength(synced.length + changed.length);
  }, 120_000);
});
