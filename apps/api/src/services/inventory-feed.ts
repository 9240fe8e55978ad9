// Reading the change feed (docs/behaviour.md §14.6–§14.7): pages in sequence order, and a live
// follower that wakes on "feed advanced" notices and reads the rows itself, so what it yields is
// exactly what the database holds after its last sequence, filtered as the caller asked.
import type { InventoryEvent, Prisma, PrismaClient } from "@hyperlens/db";
import { ValidationError } from "../errors.ts";

const CURSOR_PREFIX = "feed:";

/** The opaque cursor of an event: its sequence, encoded. */
export function feedCursor(sequence: bigint): string {
  return Buffer.from(`${CURSOR_PREFIX}${sequence}`).toString("base64url");
}

/** The sequence a cursor stands for; a cursor this server did not hand out is a clear error. */
export function sequenceOfCursor(cursor: string, field = "after"): bigint {
  const text = Buffer.from(cursor, "base64url").toString();
  const digits = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : "";
  if (!/^\d{1,19}$/.test(digits)) {
    throw new ValidationError(
      "Not a change-feed cursor: pass the cursor of an event from inventoryEvents.",
      field,
    );
  }
  return BigInt(digits);
}

/** Up to `take` events after `after` that match `where`, in sequence order. */
export function readFeed(
  prisma: PrismaClient,
  where: Prisma.InventoryEventWhereInput,
  after: bigint,
  take: number,
): Promise<InventoryEvent[]> {
  return prisma.inventoryEvent.findMany({
    where: { AND: [where, { sequence: { gt: after } }] },
    orderBy: { sequence: "asc" },
    take,
  });
}

/** The sequence of the newest event, 0 when there is none. */
async function newestSequence(prisma: PrismaClient): Promise<bigint> {
  const newest = await prisma.inventoryEvent.findFirst({
    orderBy: { sequence: "desc" },
    select: { sequence: true },
  });
  return newest?.sequence ?? 0n;
}

/** Where "the feed advanced" notices come from (the app's pub/sub, syncs/progress-events.ts). */
interface FeedNotices {
  subscribe(topic: "feed:advanced"): AsyncIterable<unknown>;
}

/** Rows read per query while catching up. */
const FOLLOW_BATCH = 500;

/**
 * Every event matching `where` committed after the follower starts, in order, each once. Woken
 * by a notice on `feed:advanced` and, in case a notice never came (a sync run by the command line
 * of another process without Redis), every `pollMs`.
 */
export async function* followFeed(
  prisma: PrismaClient,
  events: FeedNotices,
  /** Asked at every read: the follower's scope may change while it follows (§7.17). */
  where: () => Prisma.InventoryEventWhereInput,
  pollMs: number,
): AsyncGenerator<InventoryEvent> {
  // Subscribed before the starting point is read: a notice in between is not lost.
  const notices = events.subscribe("feed:advanced")[Symbol.asyncIterator]();
  let wake: (() => void) | undefined;
  let isWanted = false;
  let isEnded = false;
  const pump = (async () => {
    for (;;) {
      const step = await notices.next();
      if (step.done || isEnded) return;
      isWanted = true;
      wake?.();
    }
  })();
  const timer = setInterval(() => {
    isWanted = true;
    wake?.();
  }, pollMs);
  timer.unref();
  try {
    let after = await newestSequence(prisma);
    for (;;) {
      if (!isWanted) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      isWanted = false;
      for (;;) {
        const rows = await readFeed(prisma, where(), after, FOLLOW_BATCH);
        for (const row of rows) {
          after = row.sequence;
          yield row;
        }
        if (rows.length < FOLLOW_BATCH) break;
      }
    }
  } finally {
    isEnded = true;
    clearInterval(timer);
    await notices.return?.();
    await pump.catch(() => {});
  }
}
