// The light poll's comparison, done in the database (docs/behaviour.md §8.7): every 15 s a poll
// compares the whole listing with the stored guests, and at 50,000 guests reading every stored
// row into the process cost more than the poll itself. The listing goes in as one jsonb
// parameter; only the guests that may differ come back, with the stored columns the plan needs.
import { type PrismaClient, rawQuery } from "@hyperlens/db";
import type { GuestListing, ListedGuest } from "@hyperlens/shared";
import type { StoredListedState } from "./light-poll-plan.ts";
import { Params, recordset } from "./sql.ts";

/** What the plan needs of a listing and the stored guests: only the part that may have changed. */
export interface LightPollCandidates {
  /** The listing narrowed to the guests that are new or whose stored row differs. */
  listing: GuestListing;
  /** The stored rows of those guests, and every live stored guest the listing does not show. */
  stored: StoredListedState[];
  /** Live (not removed) stored guests of the connection, all of them: the guard counts over these. */
  known: number;
}

interface CandidateRow extends Omit<StoredListedState, "id"> {
  id: string | null;
  listedId: string | null;
  known: number;
}

const LISTED_COLUMNS = [
  { name: "externalId", cast: "text", value: (g: ListedGuest) => g.externalId },
  { name: "listKey", cast: "text", value: (g: ListedGuest) => g.listKey },
  { name: "name", cast: "text", value: (g: ListedGuest) => g.name },
  { name: "state", cast: "text", value: (g: ListedGuest) => g.state },
  { name: "hostName", cast: "text", value: (g: ListedGuest) => g.hostName },
];

/** The first entry of each guest: a guest migrating during the read can be listed twice. */
function firstOfEach(guests: ListedGuest[]): ListedGuest[] {
  const seen = new Set<string>();
  return guests.filter((g) => !seen.has(g.externalId) && seen.add(g.externalId));
}

/**
 * The listed guests the database finds new, restored or different (the same tests as the plan's,
 * so the plan decides the same on fewer rows), and the live stored guests the listing misses.
 */
export async function readLightPollCandidates(
  prisma: PrismaClient,
  connectionId: string,
  listing: GuestListing,
): Promise<LightPollCandidates> {
  const guests = firstOfEach(listing.guests);
  const params = new Params();
  const { from } = recordset(params, LISTED_COLUMNS, guests, "l");
  const connection = params.add(connectionId, "uuid");
  // The count's row is joined to every candidate, and stands alone when there is none.
  const rows = await rawQuery<CandidateRow>(
    prisma,
    `WITH stored AS (SELECT * FROM virtual_machines WHERE "connectionId" = ${connection}),
     candidates AS (
       SELECT l."externalId" AS "listedId", s.id, s."externalId", s."listKey", s.name,
         s.state::text AS state, s."hostName", s.fingerprint, s.confirmation::text AS confirmation,
         s."removedAt" IS NOT NULL AS "isRemoved"
       FROM ${from} FULL JOIN stored s ON s."externalId" = l."externalId"
       WHERE s.id IS NULL
         OR (l."externalId" IS NULL AND s."removedAt" IS NULL)
         OR (l."externalId" IS NOT NULL AND (s."removedAt" IS NOT NULL
           OR s."listKey" <> l."listKey"
           OR (l."hostName" IS NOT NULL AND l."hostName" IS DISTINCT FROM s."hostName")
           OR (l.state IS NOT NULL AND (s.name <> l.name OR s.state::text <> l.state)))))
     SELECT c.*, k.known FROM candidates c
     RIGHT JOIN (SELECT count(*)::int AS known FROM stored WHERE "removedAt" IS NULL) k ON true`,
    params.values,
  );
  const listedIds = new Set<string>();
  const stored: StoredListedState[] = [];
  for (const { listedId, known: _, id, ...row } of rows) {
    if (listedId !== null) listedIds.add(listedId);
    if (id !== null) stored.push({ ...row, id });
  }
  const narrowed = guests.filter((g) => listedIds.has(g.externalId));
  return {
    listing: { ...listing, guests: narrowed },
    stored,
    known: rows[0]?.known ?? 0,
  };
}
