// What the unified list computes from the inventory alone — a filter's total (docs/behaviour.md
// §11.2) and which guests a page holds (§11.5) — is kept and served again while the inventory's
// version is the one read before it was computed, so it is always exact, never estimated. Under
// 200 concurrent first pages this spares the database and Prisma's query compiler the same filter
// again and again; the rows themselves are read fresh for every request.
import { type PrismaClient, rawQuery } from "@hyperlens/db";

/**
 * What changes whenever a total or a page could, read in the transactions that write: the change
 * feed's newest sequence (address rules and every sync's guest changes append to it in the writing
 * transaction, under a lock that makes sequence order commit order — docs/behaviour.md §14.1),
 * and each connection's newest sync run with its counts, which a sync updates in the transaction
 * of every chunk it writes (a guest only reconfirmed has no feed event) and ends by setting
 * finishedAt. A deleted connection drops out of that list. Read before computing, so a write that
 * commits meanwhile leaves the value marked with the older version, to be computed again. Read on
 * the driver: through Prisma the same fixed statement would be compiled for every request.
 */
async function inventoryVersion(prisma: PrismaClient): Promise<string> {
  const [row] = await rawQuery<{ version: string }>(
    prisma,
    `SELECT concat_ws(':',
      (SELECT max(sequence) FROM inventory_events),
      (SELECT md5(string_agg(concat_ws('/', c.id, r.id, r."finishedAt", r.counts), ',' ORDER BY c.id))
         FROM connections c
         LEFT JOIN LATERAL (SELECT id, "finishedAt", counts FROM sync_runs
           WHERE "connectionId" = c.id ORDER BY "startedAt" DESC LIMIT 1) r ON true)) AS version`,
  );
  return row?.version ?? "";
}

/** The inventory's version, read once per request: a page and its total share one read. */
export class RequestVersions {
  readonly #byRequest = new WeakMap<object, Promise<string>>();

  of(request: object, prisma: PrismaClient): Promise<string> {
    let version = this.#byRequest.get(request);
    if (!version) {
      version = inventoryVersion(prisma);
      this.#byRequest.set(request, version);
    }
    return version;
  }
}

interface Kept<T> {
  version: string;
  value: Promise<T>;
}

/** Values by database and key; requests alike at one version share one computation. */
export class InventoryMemo<T> {
  readonly #byDatabase = new WeakMap<PrismaClient, Map<string, Kept<T>>>();

  readonly #maxKeys: number;

  /** `maxKeys`: keys kept per database; the oldest is dropped beyond it. */
  constructor(maxKeys: number) {
    this.#maxKeys = maxKeys;
  }

  /**
   * The value for `key`, computed anew unless it was computed at `version`. The key must name
   * everything the value depends on besides the inventory — the viewer's visibility included, so
   * viewers who see different connections never share a value.
   */
  async get(
    prisma: PrismaClient,
    version: Promise<string>,
    key: string,
    compute: () => Promise<T>,
  ): Promise<T> {
    let values = this.#byDatabase.get(prisma);
    if (!values) {
      values = new Map();
      this.#byDatabase.set(prisma, values);
    }
    const at = await version;
    const kept = values.get(key);
    if (kept?.version === at) return kept.value;
    const computed: Kept<T> = { version: at, value: compute() };
    values.delete(key);
    values.set(key, computed);
    if (values.size > this.#maxKeys) values.delete(values.keys().next().value as string);
    computed.value.catch(() => {
      if (values.get(key) === computed) values.delete(key);
    });
    return computed.value;
  }
}
