// The delivery log: the last few attempts per endpoint, for the Webhooks page (docs/behaviour.md
// §14.27).
import type { PrismaClient } from "@hyperlens/db";
import type { FeedEvent } from "./payload.ts";
import type { AttemptResult } from "./sender.ts";

export type DeliveryOutcome = "DELIVERED" | "FAILED" | "GAVE_UP";

/** Logs one attempt. */
export async function recordDelivery(
  prisma: PrismaClient,
  endpointId: string,
  event: FeedEvent,
  attempt: AttemptResult & { at: Date; attempt: number; outcome: DeliveryOutcome },
): Promise<void> {
  await prisma.webhookDelivery.create({
    data: {
      endpointId,
      at: attempt.at,
      eventId: event.id,
      eventSequence: event.sequence,
      eventType: event.type,
      attempt: attempt.attempt,
      outcome: attempt.outcome,
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
    },
  });
}

/** Drops the endpoint's log rows beyond the newest `limit`. */
export async function trimDeliveryLog(
  prisma: PrismaClient,
  endpointId: string,
  limit: number,
): Promise<void> {
  // TRAP: docs/behaviour.md §14.27 — unbounded, a failing endpoint's log grows by an attempt per
  // backoff for days.
  await prisma.$executeRaw`
    DELETE FROM webhook_deliveries WHERE "endpointId" = ${endpointId}::uuid AND id NOT IN (
      SELECT id FROM webhook_deliveries WHERE "endpointId" = ${endpointId}::uuid
      ORDER BY at DESC, "eventSequence" DESC NULLS LAST LIMIT ${limit}::int)`;
}
