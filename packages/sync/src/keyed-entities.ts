import { randomUUID } from "node:crypto";
import type { RawSql } from "@hyperlens/db";
import type { NeutralEdgeGateway, NeutralNode } from "@hyperlens/shared";
import { fingerprintOf } from "./fingerprint.ts";
import { decideGuard, type GuardDecision } from "./guard.ts";
import { bigintParam, chunk, MAX_PARAMS, Params, uuidList } from "./sql.ts";
import type { WriteContext } from "./write-context.ts";

/** A stored node or edge gateway, as far as reconciling it needs. */
export interface StoredKeyed {
  id: string;
  externalId: string;
  name: string;
  fingerprint: string;
  removedAt: Date | null;
}

/** What to do with the nodes or edge gateways of one connection. */
export interface KeyedPlan<T> {
  /** `id` is the stored row's, or the one a new row is inserted with. */
  writes: { item: T; fingerprint: string; id: string; stored?: StoredKeyed }[];
  removals: StoredKeyed[];
  guard: GuardDecision;
  /** Missing but kept because the guard fired. */
  suppressedRemovals: StoredKeyed[];
}

/**
 * Plans nodes or edge gateways like guests: write what is new, changed or restored; remove what
 * is missing only after a complete read and only if the guard allows.
 */
export function planKeyed<T extends { externalId: string }>(
  stored: StoredKeyed[],
  items: T[],
  isComplete: boolean,
  noun: string,
): KeyedPlan<T> {
  const byId = new Map(stored.map((row) => [row.externalId, row]));
  const seen = new Set<string>();
  const writes: KeyedPlan<T>["writes"] = [];
  for (const item of items) {
    if (seen.has(item.externalId)) continue;
    seen.add(item.externalId);
    const fingerprint = fingerprintOf(item);
    const row = byId.get(item.externalId);
    if (!row || row.fingerprint !== fingerprint || row.removedAt)
      writes.push({ item, fingerprint, id: row?.id ?? randomUUID(), stored: row });
  }
  const live = stored.filter((row) => !row.removedAt);
  const missing = live.filter((row) => !seen.has(row.externalId));
  const guard = decideGuard(live.length, live.length - missing.length, noun);
  // TRAP: docs/behaviour.md §4 step 4 — after an incomplete read "missing" means "not read yet", not gone.
  if (!isComplete) return { writes, removals: [], guard, suppressedRemovals: [] };
  return guard.allowsRemoval
    ? { writes, removals: missing, guard, suppressedRemovals: [] }
    : { writes, removals: [], guard, suppressedRemovals: missing };
}

interface KeyedTable<T> {
  table: "hypervisor_nodes" | "edge_gateways";
  columns: [string, string, (item: T) => unknown][];
}

/** The columns of hypervisor_nodes the engine writes. */
export const NODE_TABLE: KeyedTable<NeutralNode> = {
  table: "hypervisor_nodes",
  columns: [
    ["externalId", "text", (n) => n.externalId],
    ["name", "text", (n) => n.name],
    ["clusterName", "text", (n) => n.clusterName],
    ["isOnline", "boolean", (n) => n.isOnline],
    ["cpuCount", "int", (n) => n.cpuCount],
    ["memoryBytes", "bigint", (n) => bigintParam(n.memoryBytes)],
    ["details", "jsonb", (n) => JSON.stringify(n.details)],
  ],
};

/** The columns of edge_gateways the engine writes. */
export const EDGE_GATEWAY_TABLE: KeyedTable<NeutralEdgeGateway> = {
  table: "edge_gateways",
  columns: [
    ["externalId", "text", (g) => g.externalId],
    ["name", "text", (g) => g.name],
    ["orgName", "text", (g) => g.orgName],
    ["ownerType", "text", (g) => g.ownerType],
    ["ownerName", "text", (g) => g.ownerName],
    ["details", "jsonb", (g) => JSON.stringify(g.details)],
  ],
};

/** Upserts and tombstones nodes or edge gateways as planned; returns rows written. */
export async function writeKeyed<T>(
  db: RawSql,
  ctx: WriteContext,
  spec: KeyedTable<T>,
  plan: Pick<KeyedPlan<T>, "writes" | "removals">,
): Promise<number> {
  let written = 0;
  const { table, columns } = spec;
  const names = columns.map(([name]) => `"${name}"`).join(",");
  const updates = columns.map(([name]) => `"${name}" = EXCLUDED."${name}"`).join(", ");
  for (const part of chunk(plan.writes, Math.floor(MAX_PARAMS / (columns.length + 2)))) {
    const params = new Params();
    const connection = params.add(ctx.connectionId, "uuid");
    const now = params.add(ctx.now.toISOString(), "timestamptz");
    const tuples = part.map(({ item, fingerprint, id }) => {
      const cells = columns.map(([, cast, value]) => params.add(value(item) ?? null, cast));
      return `(${params.add(id, "uuid")},${connection},${cells.join(",")},${params.add(fingerprint, "text")},${now},${now})`;
    });
    written += await db.$executeRawUnsafe(
      `INSERT INTO ${table} ("id","connectionId",${names},"fingerprint","firstSeenAt","lastSeenAt")
       VALUES ${tuples.join(",")}
       ON CONFLICT ("connectionId","externalId") DO UPDATE SET ${updates},
         "fingerprint" = EXCLUDED."fingerprint", "lastSeenAt" = EXCLUDED."lastSeenAt", "removedAt" = NULL
       WHERE ${table}."fingerprint" IS DISTINCT FROM EXCLUDED."fingerprint" OR ${table}."removedAt" IS NOT NULL`,
      ...params.values,
    );
  }
  for (const part of chunk(plan.removals, MAX_PARAMS - 1)) {
    const params = new Params();
    const now = params.add(ctx.now.toISOString(), "timestamptz");
    const ids = uuidList(
      params,
      part.map((row) => row.id),
    );
    written += await db.$executeRawUnsafe(
      `UPDATE ${table} SET "removedAt" = ${now} WHERE "id" IN ${ids} AND "removedAt" IS NULL`,
      ...params.values,
    );
  }
  return written;
}
