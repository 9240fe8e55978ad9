// Webhook throughput: events delivered per second to a local receiver that verifies every
// signature, one event per request, in order, over reused keep-alive connections. The feed is
// written first with appendInventoryEvents; the clock runs from the dispatcher's start to the
// receiver's last accepted event. The database is the test one (PGlite, or DATABASE_URL).
import { rawTransaction } from "@hyperlens/db";
import { appendInventoryEvents } from "@hyperlens/sync";
import { createWebhook } from "../apps/api/src/services/webhooks.ts";
import { createTestServices } from "../apps/api/src/testing/test-app.ts";
import { startWebhookReceiver } from "../apps/api/src/testing/webhook-receiver.ts";
import { createWebhookDispatcher } from "../apps/api/src/webhooks/dispatcher.ts";
import type { Figure } from "./figures.ts";
import { settings } from "./settings.ts";

const TARGET_PER_SECOND = 500;
const CHUNK = 500;

/** Runs the webhook scenario and returns its figure. */
export async function benchWebhooks(): Promise<Figure[]> {
  const count = settings.webhookEvents;
  const { services } = await createTestServices();
  let secret = "";
  const receiver = await startWebhookReceiver(() => secret);
  const policy = { allowLoopbackTargets: true };
  const dispatcher = createWebhookDispatcher({
    prisma: services.prisma,
    secrets: services.secrets,
    logger: services.logger,
    policy,
    holder: "bench",
  });
  try {
    ({ secret } = await createWebhook(
      services.prisma,
      services.secrets,
      policy,
      { url: receiver.url },
      null,
    ));
    const connectionId = "00000000-0000-4000-8000-0000000be4c1";
    for (let start = 0; start < count; start += CHUNK) {
      const events = Array.from({ length: Math.min(CHUNK, count - start) }, (_, i) => ({
        type: "VM_CHANGED" as const,
        connectionId,
        subjectName: `vm-${start + i}`,
        data: { memoryMb: { from: 4096, to: 8192 } },
        at: new Date(),
      }));
      await rawTransaction(services.prisma, (tx) => appendInventoryEvents(tx, events));
    }
    const started = performance.now();
    dispatcher.start();
    await receiver.waitFor(count, 600_000);
    const seconds = (performance.now() - started) / 1000;
    const perSecond = count / seconds;
    const sequences = receiver.events.map((e) => e.sequence ?? 0);
    const isInOrder = sequences.every((s, i) => i === 0 || s > (sequences[i - 1] ?? 0));
    return [
      {
        scenario: "webhooks",
        figure: "events delivered per second (one endpoint)",
        value: Math.round(perSecond),
        unit: "/s",
        target: `≥ ${TARGET_PER_SECOND}/s`,
        isMet: perSecond >= TARGET_PER_SECOND && isInOrder && receiver.badSignatures === 0,
        note: `${count} events in ${seconds.toFixed(1)} s, ${receiver.requests} requests, ${receiver.duplicates} duplicates, ${receiver.badSignatures} bad signatures, ${isInOrder ? "in order" : "OUT OF ORDER"}`,
      },
    ];
  } finally {
    await dispatcher.stop();
    await receiver.close();
    await services.webhooks.stop();
    await services.db.close();
  }
}
