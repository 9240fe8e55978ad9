// Webhook delivery against a real HTTP receiver that verifies every signature
// (docs/behaviour.md §14.22–§14.27).
import { rawTransaction } from "@hyperlens/db";
import { appendInventoryEvents, type NewInventoryEvent } from "@hyperlens/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "../context.ts";
import { createWebhook } from "../services/webhooks.ts";
import { createTestServices } from "../testing/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../testing/webhook-receiver.ts";
import { createWebhookDispatcher, type WebhookDispatcherOptions } from "./dispatcher.ts";
import { wakeOnFeedAdvanced } from "./wake.ts";

let services: AppServices;
const LAB = { allowLoopbackTargets: true };
const CONNECTION = "00000000-0000-4000-8000-00000000c0c1";
const OTHER_CONNECTION = "00000000-0000-4000-8000-00000000c0c2";

beforeAll(async () => {
  ({ services } = await createTestServices());
  for (const [id, name] of [
    [CONNECTION, "pve-a"],
    [OTHER_CONNECTION, "pve-b"],
  ] as const) {
    await services.prisma.connection.create({
      data: { id, kind: "PROXMOX", name, baseUrl: "https://pve.example:8006", username: "u@pve" },
    });
  }
});
afterAll(async () => services?.db.close());

let names = 0;
const HOUR = 3_600_000;

async function append(
  count: number,
  overrides: Partial<NewInventoryEvent> = {},
): Promise<string[]> {
  const events = Array.from({ length: count }, () => ({
    type: "VM_ADDED" as const,
    connectionId: CONNECTION,
    subjectName: `vm-${++names}`,
    data: { n: names },
    at: new Date(),
    ...overrides,
  }));
  await rawTransaction(services.prisma, (tx) => appendInventoryEvents(tx, events));
  return events.map((e) => e.subjectName ?? "");
}

function dispatcher(overrides: Partial<WebhookDispatcherOptions> = {}) {
  return createWebhookDispatcher({
    prisma: services.prisma,
    secrets: services.secrets,
    logger: services.logger,
    policy: LAB,
    holder: `test-${Math.random()}`,
    pollMs: 10,
    schedule: { baseMs: 20, capMs: 50 },
    ...overrides,
  });
}

/** A receiver, and an endpoint pointing at it created the way an administrator would. */
async function endpointWithReceiver(
  answer?: (n: number) => number | Promise<number>,
  filter: { eventTypes?: ("VM_ADDED" | "VM_REMOVED")[]; connectionIds?: string[] } = {},
) {
  let secret = "";
  const receiver = await startWebhookReceiver(() => secret, answer);
  const created = await createWebhook(
    services.prisma,
    services.secrets,
    LAB,
    { url: receiver.url, ...filter },
    null,
  );
  secret = created.secret;
  return { receiver, endpoint: created.endpoint };
}

function expectExactlyOnceInOrder(receiver: WebhookReceiver, subjects: string[]) {
  expect(receiver.badSignatures).toBe(0);
  expect(receiver.events.map((e) => (e.body.subject as { name: string }).name)).toEqual(subjects);
  const sequences = receiver.events.map((e) => e.sequence ?? 0);
  expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
}

async function endpointRow(id: string) {
  return services.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
}

describe("delivery (docs/behaviour.md §14.23, §14.25)", () => {
  it("retries a receiver that answers 500 three times, then delivers every event once, in order", async () => {
    const { receiver, endpoint } = await endpointWithReceiver((n) => (n <= 3 ? 500 : 200));
    const subjects = await append(5);
    const running = dispatcher();
    running.start();
    try {
      await receiver.waitFor(5);
    } finally {
      await running.stop();
      await receiver.close();
    }
    expectExactlyOnceInOrder(receiver, subjects);
    expect(receiver.requests).toBe(8);
    const log = await services.prisma.webhookDelivery.findMany({
      where: { endpointId: endpoint.id, eventId: receiver.events[0]?.id },
      orderBy: { attempt: "asc" },
    });
    expect(log.map((d) => [d.attempt, d.outcome, d.statusCode])).toEqual([
      [1, "FAILED", 500],
      [2, "FAILED", 500],
      [3, "FAILED", 500],
      [4, "DELIVERED", 200],
    ]);
    const row = await endpointRow(endpoint.id);
    expect(row.attempt).toBe(0);
    expect(row.failingSince).toBeNull();
  });

  it("a failure after some deliveries keeps their cursor and waits out its backoff", async () => {
    const { receiver, endpoint } = await endpointWithReceiver((n) => (n === 3 ? 500 : 200));
    await append(4);
    const running = dispatcher({ schedule: { baseMs: 60_000, capMs: 60_000 } });
    try {
      await running.runOnce();
    } finally {
      await running.stop();
      await receiver.close();
    }
    expect(receiver.requests).toBe(3);
    const row = await endpointRow(endpoint.id);
    expect(row.cursor).toBe(BigInt(receiver.events[1]?.sequence ?? -1));
    expect(row.attempt).toBe(1);
    expect(row.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now());
    const log = await services.prisma.webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      orderBy: { at: "asc" },
    });
    expect(log.map((d) => d.outcome)).toEqual(["DELIVERED", "DELIVERED", "FAILED"]);
  });

  it("a restart in the middle of a retry backoff resumes from the database: every event once, in order", async () => {
    const { receiver, endpoint } = await endpointWithReceiver((n) => (n === 1 ? 500 : 200));
    const subjects = await append(4);
    // The first retry waits a fixed 700 ms (full jitter drawn at its top).
    const schedule = { baseMs: 700, capMs: 700 };
    const first = dispatcher({ schedule, random: () => 0.999_999 });
    first.start();
    await expect.poll(() => receiver.requests, { timeout: 10_000 }).toBe(1);
    await first.stop();
    const waiting = await endpointRow(endpoint.id);
    expect(waiting.attempt).toBe(1);
    expect(waiting.leaseHolder).toBeNull();
    expect(waiting.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now());
    const second = dispatcher({ schedule });
    second.start();
    try {
      await receiver.waitFor(4);
    } finally {
      await second.stop();
      await receiver.close();
    }
    expectExactlyOnceInOrder(receiver, subjects);
    const retried = await services.prisma.webhookDelivery.findFirstOrThrow({
      where: { endpointId: endpoint.id, attempt: 2 },
    });
    expect(retried.outcome).toBe("DELIVERED");
    expect(retried.at.getTime()).toBeGreaterThanOrEqual(waiting.nextAttemptAt?.getTime() ?? 0);
  });

  it("sends only the types and connections the endpoint's filter names (docs/behaviour.md §14.22)", async () => {
    const { receiver } = await endpointWithReceiver(undefined, {
      eventTypes: ["VM_REMOVED"],
      connectionIds: [CONNECTION],
    });
    await append(2, { type: "VM_ADDED" });
    const wanted = await append(2, { type: "VM_REMOVED" });
    await append(2, { type: "VM_REMOVED", connectionId: OTHER_CONNECTION });
    const later = await append(1, { type: "VM_REMOVED" });
    const running = dispatcher();
    running.start();
    try {
      await receiver.waitFor(3);
      await running.runOnce();
    } finally {
      await running.stop();
      await receiver.close();
    }
    expectExactlyOnceInOrder(receiver, [...wanted, ...later]);
    expect(receiver.events.map((e) => e.type)).toEqual(["VM_REMOVED", "VM_REMOVED", "VM_REMOVED"]);
  });

  it("two replicas delivering to one endpoint at once still deliver each event once, in order (docs/behaviour.md §14.25)", async () => {
    const { receiver } = await endpointWithReceiver();
    const subjects = await append(30);
    const replicas = [dispatcher(), dispatcher()];
    for (const replica of replicas) replica.start();
    try {
      await receiver.waitFor(30);
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
      await receiver.close();
    }
    expectExactlyOnceInOrder(receiver, subjects);
    expect(receiver.duplicates).toBe(0);
  });
});

describe("a new endpoint (docs/behaviour.md §14.29)", () => {
  it("is sent only the events appended after it was created", async () => {
    await append(3);
    const { receiver } = await endpointWithReceiver();
    const fresh = await append(2);
    const running = dispatcher();
    try {
      await running.runOnce();
    } finally {
      await running.stop();
      await receiver.close();
    }
    expectExactlyOnceInOrder(receiver, fresh);
  });
});

describe("when a pass runs (docs/behaviour.md §14.23)", () => {
  it("with an hour's poll, delivers at once when the feed advances and retries when the backoff ends", async () => {
    const { receiver, endpoint } = await endpointWithReceiver((n) => (n === 2 ? 500 : 200));
    // The retry waits a fixed 500 ms (full jitter drawn at its top).
    const schedule = { baseMs: 500, capMs: 500 };
    const running = dispatcher({ pollMs: HOUR, schedule, random: () => 0.999_999 });
    const waker = wakeOnFeedAdvanced(services.events, running);
    running.start();
    try {
      // The starting pass finds nothing; only the notice can bring the next one within the hour.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const first = await append(1);
      services.events.publish("feed:advanced", { connectionId: CONNECTION });
      await receiver.waitFor(1, 5_000);
      await expect.poll(async () => (await endpointRow(endpoint.id)).leaseHolder).toBeNull();
      // Refused once: the retry's own due time brings the pass that delivers it.
      const second = await append(1);
      services.events.publish("feed:advanced", { connectionId: CONNECTION });
      await receiver.waitFor(2, 5_000);
      expectExactlyOnceInOrder(receiver, [...first, ...second]);
      expect(receiver.requests).toBe(3);
    } finally {
      waker.stop();
      await running.stop();
      await receiver.close();
    }
  });
});

describe("a retry that falls due during its own pass (docs/behaviour.md §14.24)", () => {
  it("is taken at once, not left for an hour's poll", async () => {
    // The refusal takes longer than the backoff it earns: the retry is due before the pass ends.
    const { receiver, endpoint } = await endpointWithReceiver(async (n) => {
      if (n !== 1) return 200;
      await new Promise((resolve) => setTimeout(resolve, 600));
      return 500;
    });
    const running = dispatcher({
      pollMs: HOUR,
      schedule: { baseMs: 100, capMs: 100 },
      random: () => 0.999_999,
    });
    try {
      const events = await append(1);
      running.start();
      await receiver.waitFor(1, 5_000);
      expectExactlyOnceInOrder(receiver, events);
      expect(receiver.requests).toBe(2);
    } finally {
      await running.stop();
      await receiver.close();
      await services.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
    }
  });
});

describe("the outbound address policy (docs/behaviour.md §14.21)", () => {
  it("without the opt-in, an endpoint on loopback is not connected to", async () => {
    const { receiver, endpoint } = await endpointWithReceiver();
    // As if saved under the opt-in and served over https, then the server restarted without it.
    const httpsUrl = receiver.url.replace("http:", "https:");
    await services.prisma.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { url: httpsUrl },
    });
    await append(1);
    const strict = dispatcher({ policy: { allowLoopbackTargets: false } });
    await strict.runOnce();
    await strict.stop();
    await receiver.close();
    expect(receiver.requests).toBe(0);
    const [attempt] = await services.prisma.webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
    });
    expect(attempt?.error).toMatch(/is a loopback address/);
    await services.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });
});

describe("failing endpoints (docs/behaviour.md §14.24, §14.26, §14.27)", () => {
  it("gives each event up after a day of retries and disables the endpoint after three days of failure", async () => {
    const { receiver, endpoint } = await endpointWithReceiver(() => 500);
    await append(6);
    let clock = new Date("2030-01-01T00:00:00Z");
    const start = clock.getTime();
    const failing = dispatcher({
      // The default periods (1 h cap, a day per event, three days to disable); jitter at its top.
      schedule: {},
      random: () => 0.999,
      now: () => clock,
      deliveryLogLimit: 10,
    });
    let row = await endpointRow(endpoint.id);
    for (let step = 0; step < 1000 && row.isEnabled; step++) {
      await failing.runOnce();
      row = await endpointRow(endpoint.id);
      // Backoffs never exceed the one-hour cap.
      if (row.nextAttemptAt)
        expect(row.nextAttemptAt.getTime() - clock.getTime()).toBeLessThanOrEqual(3_600_000);
      clock = new Date(Math.max(row.nextAttemptAt?.getTime() ?? 0, clock.getTime() + 1));
    }
    await failing.stop();
    await receiver.close();
    expect(row.isEnabled).toBe(false);
    expect(row.disabledReason).toMatch(/3 day/);
    const disabledAfter =
      (
        await services.prisma.webhookDelivery.findFirstOrThrow({
          where: { endpointId: endpoint.id },
          orderBy: { at: "desc" },
        })
      ).at.getTime() - start;
    expect(disabledAfter).toBeGreaterThanOrEqual(3 * 86_400_000);
    expect(disabledAfter).toBeLessThan(3 * 86_400_000 + 3_600_000);
    // Each day one event was given up and the cursor moved past it (the log keeps too few rows
    // to count them there): three days, two or three events behind the cursor.
    expect(row.cursor - endpoint.cursor).toBeGreaterThanOrEqual(2n);
    expect(row.cursor - endpoint.cursor).toBeLessThanOrEqual(3n);
    expect(
      await services.prisma.webhookDelivery.count({ where: { endpointId: endpoint.id } }),
    ).toBe(10);
  });
});
