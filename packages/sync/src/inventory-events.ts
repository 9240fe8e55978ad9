// The one writer of the change feed (docs/behaviour.md §14).
import { randomUUID } from "node:crypto";
import type { InventoryEventType, RawSql } from "@hyperlens/db";
import type { JsonObject } from "@hyperlens/shared";
import { insertRows } from "./sql.ts";

/**
 * The advisory-lock key every feed writer takes ("HLfeed" in ASCII). Held to the end of the
 * writer's transaction, it orders event commits: a bigserial alone hands out numbers at insert, so
 * a long transaction could commit sequence 7 after another committed 8, and a reader already past
 * 8 would never see 7.
 */
export const INVENTORY_FEED_LOCK_KEY = 0x484c66656564;

/** One change-feed row to append. */
export interface NewInventoryEvent {
  type: InventoryEventType;
  connectionId: string;
  syncRunId?: string | null;
  subjectId?: string | null;
  subjectName?: string | null;
  data: JsonObject;
  at: Date;
}

/**
 * Appends events in the caller's transaction, after every other write of it: the lock is held from
 * here to commit, so taking it last keeps other writers waiting the shortest time. Returns the
 * rows written.
 */
export async function appendInventoryEvents(
  db: RawSql,
  events: readonly NewInventoryEvent[],
): Promise<number> {
  if (events.length === 0) return 0;
  // Executed, not queried: Prisma's own transaction client cannot read back a `void` column.
  await db.$executeRawUnsafe("SELECT pg_advisory_xact_lock($1::bigint)", INVENTORY_FEED_LOCK_KEY);
  return insertRows(
    db,
    "inventory_events",
    [
      { name: "id", cast: "uuid", value: () => randomUUID() },
      { name: "at", cast: "timestamptz", value: (e) => e.at.toISOString() },
      { name: "type", cast: '"InventoryEventType"', value: (e) => e.type },
      { name: "connectionId", cast: "uuid", value: (e) => e.connectionId },
      { name: "syncRunId", cast: "uuid", value: (e) => e.syncRunId },
      { name: "subjectId", cast: "uuid", value: (e) => e.subjectId },
      { name: "subjectName", cast: "text", value: (e) => e.subjectName },
      { name: "data", cast: "jsonb", value: (e) => e.data },
    ],
    [...events],
  );
}
