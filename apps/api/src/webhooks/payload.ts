// What a webhook request carries: one change-feed event as JSON (docs/api.md "Webhooks").
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@hyperlens/db";

/** A change-feed event as the dispatcher reads it, with its connection's name. */
export interface FeedEvent {
  sequence: bigint | null;
  id: string;
  type: string;
  at: Date;
  connectionId: string | null;
  connectionName: string | null;
  syncRunId: string | null;
  subjectId: string | null;
  subjectName: string | null;
  data: unknown;
}

/** The type of the event "send test event" delivers; never in the change feed. */
export const TEST_EVENT_TYPE = "WEBHOOK_TEST";

/** The request body: ids are database UUIDs (the id part of the GraphQL global id). */
export function webhookBody(event: FeedEvent): string {
  return JSON.stringify({
    id: event.id,
    sequence: event.sequence === null ? null : Number(event.sequence),
    type: event.type,
    at: event.at.toISOString(),
    connection: event.connectionId ? { id: event.connectionId, name: event.connectionName } : null,
    syncRunId: event.syncRunId,
    subject:
      event.subjectId || event.subjectName
        ? { id: event.subjectId, name: event.subjectName }
        : null,
    data: event.data,
  });
}

/** A test event: a fresh id, no sequence, no connection; tells the receiver it is a test. */
export function testEvent(at: Date): FeedEvent {
  return {
    sequence: null,
    id: randomUUID(),
    type: TEST_EVENT_TYPE,
    at,
    connectionId: null,
    connectionName: null,
    syncRunId: null,
    subjectId: null,
    subjectName: null,
    data: { message: "A test event from Hyperlens; it is not part of the change feed." },
  };
}

/** The filter an endpoint keeps: empty lists mean every type, every connection. */
export interface EndpointFilter {
  cursor: bigint;
  eventTypes: readonly string[];
  connectionIds: readonly string[];
}

/** The first `limit` events after the endpoint's cursor that its filter lets through, in order. */
export async function nextFeedEvents(
  prisma: PrismaClient,
  filter: EndpointFilter,
  limit: number,
): Promise<FeedEvent[]> {
  const rows = await prisma.$queryRaw<FeedEvent[]>`
    SELECT v.sequence, v.id, v.type::text AS type, v.at, v."connectionId", c.name AS "connectionName",
      v."syncRunId", v."subjectId", v."subjectName", v.data
    FROM inventory_events v LEFT JOIN connections c ON c.id = v."connectionId"
    WHERE v.sequence > ${filter.cursor}::bigint
      AND (cardinality(${filter.eventTypes}::text[]) = 0 OR v.type::text = ANY(${filter.eventTypes}::text[]))
      AND (cardinality(${filter.connectionIds}::text[]) = 0 OR v."connectionId"::text = ANY(${filter.connectionIds}::text[]))
    ORDER BY v.sequence LIMIT ${limit}::int`;
  return rows;
}
