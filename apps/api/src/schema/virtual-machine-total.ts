// The unified list's total (docs/behaviour.md §11.2): counting 50,000 guests through a filter
// costs more than the page itself, and a list is read far more often than the inventory changes.
// A total is counted once per filter and visibility and served again while the inventory's
// version is the one read before it was counted — so it is always exact, never estimated.
import type { Prisma, PrismaClient } from "@hyperlens/db";

/** Filters kept per database; the oldest is dropped beyond this. */
const MAX_FILTERS = 500;

/**
 * What changes whenever a count could, read in the transactions that write: the change feed's
 * newest sequence (address rules and every sync's guest changes append to it in the writing
 * transaction, under a lock that makes sequence order commit order — docs/behaviour.md §14.1),
 * and each connection's newest sync run with its counts, which a sync updates in the transaction
 * of every chunk it writes (a guest only reconfirmed has no feed event) and ends by setting
 * finishedAt. A deleted connection drops out of that list. Read before the count, so a write that
 * commits while the count runs leaves the total marked with the older version, to be counted again.
 */
async function inventoryVersion(prisma: PrismaClient): Promise<string> {
  const [row] = await prisma.$queryRaw<[{ version: string }]>`
    SELECT concat_ws(':',
      (SELECT max(sequence) FROM inventory_events),
      (SELECT md5(string_agg(concat_ws('/', c.id, r.id, r."finishedAt", r.counts), ',' ORDER BY c.id))
         FROM connections c
         LEFT JOIN LATERAL (SELECT id, "finishedAt", counts FROM sync_runs
           WHERE "connectionId" = c.id ORDER BY "startedAt" DESC LIMIT 1) r ON true)) AS version`;
  return row.version;
}

interface CountedTotal {
  version: string;
  total: Promise<number>;
}

/** Totals by database and filter; requests alike at one version share one count. */
export class ListTotals {
  readonly #byDatabase = new WeakMap<PrismaClient, Map<string, CountedTotal>>();

  /** The number of guests `where` matches, exact as of this call. */
  async count(prisma: PrismaClient, where: Prisma.VirtualMachineWhereInput): Promise<number> {
    let totals = this.#byDatabase.get(prisma);
    if (!totals) {
      totals = new Map();
      this.#byDatabase.set(prisma, totals);
    }
    // The where holds the viewer's visibility condition: viewers who see different connections
    // never share a total.
    const key = JSON.stringify(where);
    const version = await inventoryVersion(prisma);
    const kept = totals.get(key);
    if (kept?.version === version) return kept.total;
    const counted: CountedTotal = { version, total: prisma.virtualMachine.count({ where }) };
    totals.delete(key);
    totals.set(key, counted);
    if (totals.size > MAX_FILTERS) totals.delete(totals.keys().next().value as string);
    counted.total.catch(() => {
      if (totals.get(key) === counted) totals.delete(key);
    });
    return counted.total;
  }
}
