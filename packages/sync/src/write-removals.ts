import type { RawSql } from "@hyperlens/db";
import { englishText, type JsonObject, serverText } from "@hyperlens/shared";
import { vmRemovedEvent } from "./feed-events.ts";
import type { NewInventoryEvent } from "./inventory-events.ts";
import type { PlannedConfirmation, PlannedRemoval } from "./plan.ts";
import { chunk, MAX_PARAMS, Params, uuidList } from "./sql.ts";
import type { WriteContext } from "./write-context.ts";
import { insertEvents } from "./write-vms.ts";

/**
 * Marks kept-but-unseen guests (node offline, list failed, not confirmed) in one bulk UPDATE. A
 * row leaving CONFIRMED was last seen by the previous completed sync, so lastSeenAt moves there.
 */
async function updateConfirmations(
  db: RawSql,
  ctx: WriteContext,
  confirmations: PlannedConfirmation[],
): Promise<number> {
  let written = 0;
  for (const part of chunk(confirmations, Math.floor(MAX_PARAMS / 2) - 1)) {
    const params = new Params();
    const previous = params.add(ctx.previousSuccessAt?.toISOString() ?? null, "timestamptz");
    const values = part
      .map((c) => `(${params.add(c.stored.id, "uuid")},${params.add(c.confirmation, "text")})`)
      .join(",");
    written += await db.$executeRawUnsafe(
      `UPDATE virtual_machines AS v SET
         "confirmation" = c.confirmation::"Confirmation",
         "lastSeenAt" = CASE WHEN v."confirmation" = 'CONFIRMED' AND ${previous} IS NOT NULL
           THEN GREATEST(v."lastSeenAt", ${previous}) ELSE v."lastSeenAt" END
       FROM (VALUES ${values}) AS c(id, confirmation)
       WHERE v."id" = c.id AND v."confirmation" <> c.confirmation::"Confirmation"`,
      ...params.values,
    );
  }
  return written;
}

/**
 * Tombstones removed guests (when, by which sync, why) with a REMOVED event each, and records
 * the confirmation of kept ones. Runs in one transaction after every upsert has committed; adds a
 * VM_REMOVED change-feed event per tombstone to `feed`, for the caller to append last.
 */
export async function writeRemovals(
  db: RawSql,
  ctx: WriteContext,
  removals: PlannedRemoval[],
  confirmations: PlannedConfirmation[],
  feed: NewInventoryEvent[],
): Promise<number> {
  let written = await updateConfirmations(db, ctx, confirmations);
  for (const part of chunk(removals, MAX_PARAMS / 2)) {
    const params = new Params();
    const now = params.add(ctx.now.toISOString(), "timestamptz");
    const run = params.add(ctx.syncRunId, "uuid");
    const ids = uuidList(
      params,
      part.map((r) => r.stored.id),
    );
    // TRAP: docs/behaviour.md §10 history — a tombstone, never a DELETE: the timeline must outlive the guest.
    const removed = await db.$queryRawUnsafe<
      { id: string; listKey: string; name: string; externalId: string }[]
    >(
      `UPDATE virtual_machines SET "removedAt" = ${now}, "removedBySyncId" = ${run},
         "removedReason" = 'not in list ' || "listKey", "changedAt" = ${now}
       WHERE "id" IN ${ids} AND "removedAt" IS NULL
       RETURNING "id", "listKey", "name", "externalId"`,
      ...params.values,
    );
    written += removed.length;
    for (const row of removed) feed.push(vmRemovedEvent(ctx, row, removalReason(row).reason));
    written += await insertEvents(
      db,
      ctx,
      removed.map((row) => ({
        vmId: row.id,
        type: "REMOVED" as const,
        changes: removalReason(row),
      })),
    );
  }
  return written;
}

/**
 * A removed guest's history entry: the reason in English and as a code (docs/behaviour.md §11.4),
 * which What changed says in the viewer's language.
 */
function removalReason(row: { listKey: string }): { reason: string; reasonText: JsonObject } {
  const text = serverText("removalNotInList", { list: row.listKey });
  return {
    reason: englishText(text),
    reasonText: { code: text.code, params: { list: row.listKey } },
  };
}
