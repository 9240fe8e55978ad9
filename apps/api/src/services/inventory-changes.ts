// "What changed since …" (docs/behaviour.md §9.51): the guests added, removed and changed between
// two instants, judged from each guest's history (vm_events) in that window.
import type { PrismaClient } from "@hyperlens/db";
import { canonicalJson } from "@hyperlens/sync";
import { ValidationError } from "../errors.ts";

/** How a guest differs between the two instants. */
export const GUEST_CHANGE_KINDS = ["ADDED", "REMOVED", "CHANGED"] as const;
export type GuestChangeKind = (typeof GUEST_CHANGE_KINDS)[number];

/** The window: events after `since`, up to and including `until`. */
export interface ChangeWindow {
  since: Date;
  until: Date;
}

/** One guest of a group, with what differs for a changed one and the reason for a removed one. */
export interface GuestChange {
  vmId: string;
  kind: GuestChangeKind;
  /** Its last event in the window. */
  at: Date;
  /** CHANGED: { field: { from, to } } from the window's start to its end; REMOVED: { reason }. */
  changes: Record<string, unknown>;
}

/** Refuses a window whose end is not after its start. */
export function checkChangeWindow(window: ChangeWindow): void {
  if (window.until.getTime() <= window.since.getTime()) {
    throw new ValidationError("“Until” must be after “since”.", "until");
  }
}

/**
 * Each guest with events in the window and how it differs: absent at the start (its first event
 * there is APPEARED or RESTORED) and present at the end (its last is not REMOVED) is ADDED, the
 * reverse REMOVED; present at both with a CHANGED or MOVED event, CHANGED. A guest that came and
 * went inside the window is in no group. $3 is the visible connections, null for all.
 */
const CLASSIFIED = `
  WITH guest AS (
    SELECT e."vmId",
      (array_agg(e.type::text ORDER BY e.at, e.id))[1] AS first_type,
      (array_agg(e.type::text ORDER BY e.at DESC, e.id DESC))[1] AS last_type,
      bool_or(e.type IN ('CHANGED', 'MOVED')) AS is_changed,
      max(e.at) AS last_at
    FROM vm_events e JOIN virtual_machines v ON v.id = e."vmId"
    WHERE e.at > $1::timestamptz AND e.at <= $2::timestamptz
      AND ($3::uuid[] IS NULL OR v."connectionId" = ANY($3::uuid[]))
    GROUP BY e."vmId"
  ), classified AS (
    SELECT "vmId", last_at, CASE
      WHEN first_type IN ('APPEARED', 'RESTORED') AND last_type <> 'REMOVED' THEN 'ADDED'
      WHEN first_type NOT IN ('APPEARED', 'RESTORED') AND last_type = 'REMOVED' THEN 'REMOVED'
      WHEN first_type NOT IN ('APPEARED', 'RESTORED') AND is_changed THEN 'CHANGED'
    END AS kind
    FROM guest
  )`;

/** How many guests each group holds. */
export async function countChanges(
  prisma: PrismaClient,
  connectionIds: string[] | null,
  window: ChangeWindow,
): Promise<Record<GuestChangeKind, number>> {
  checkChangeWindow(window);
  const rows = await prisma.$queryRawUnsafe<{ kind: GuestChangeKind; count: number }[]>(
    `${CLASSIFIED} SELECT kind, count(*)::int AS count FROM classified WHERE kind IS NOT NULL GROUP BY kind`,
    window.since,
    window.until,
    connectionIds,
  );
  const counts = { ADDED: 0, REMOVED: 0, CHANGED: 0 };
  for (const row of rows) counts[row.kind] = row.count;
  return counts;
}

/** One page of a group, by guest name. */
export async function readChanges(
  prisma: PrismaClient,
  connectionIds: string[] | null,
  window: ChangeWindow,
  kind: GuestChangeKind,
  page: { offset: number; limit: number },
): Promise<GuestChange[]> {
  checkChangeWindow(window);
  const rows = await prisma.$queryRawUnsafe<{ vmId: string; at: Date }[]>(
    `${CLASSIFIED} SELECT c."vmId", c.last_at AS at FROM classified c
       JOIN virtual_machines v ON v.id = c."vmId"
     WHERE c.kind = $4 ORDER BY v."nameSort", v.id LIMIT $5 OFFSET $6`,
    window.since,
    window.until,
    connectionIds,
    kind,
    page.limit,
    page.offset,
  );
  if (kind === "ADDED") return rows.map((r) => ({ ...r, kind, changes: {} }));
  const events = await prisma.vmEvent.findMany({
    where: {
      vmId: { in: rows.map((r) => r.vmId) },
      at: { gt: window.since, lte: window.until },
      type: { in: kind === "CHANGED" ? ["CHANGED", "MOVED"] : ["REMOVED"] },
    },
    orderBy: [{ at: "asc" }, { id: "asc" }],
    select: { vmId: true, changes: true },
  });
  return rows.map((r) => {
    const own = events.filter((e) => e.vmId === r.vmId).map((e) => asObject(e.changes));
    const changes = kind === "CHANGED" ? netChanges(own) : (own.at(-1) ?? {});
    return { ...r, kind, changes };
  });
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * The changes of several events as one: each field from its first `from` to its last `to`; a field
 * that went back to where it was is left out.
 */
export function netChanges(
  events: readonly Record<string, unknown>[],
): Record<string, { from: unknown; to: unknown }> {
  const net = new Map<string, { from: unknown; to: unknown }>();
  for (const changes of events) {
    for (const [field, value] of Object.entries(changes)) {
      const step = asObject(value);
      if (!("from" in step) && !("to" in step)) continue;
      const first = net.get(field);
      net.set(field, { from: first ? first.from : step.from, to: step.to });
    }
  }
  return Object.fromEntries(
    [...net].filter(
      ([, { from, to }]) => canonicalJson(from ?? null) !== canonicalJson(to ?? null),
    ),
  );
}
