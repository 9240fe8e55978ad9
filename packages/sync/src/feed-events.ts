// What the change feed says about each write of a sync (docs/behaviour.md §14.2–§14.5). Pure: the
// writers collect these and append them last in the transaction that makes the change.
import type { NeutralEdgeGateway } from "@hyperlens/shared";
import type { VmDiff } from "./diff.ts";
import type { NewInventoryEvent } from "./inventory-events.ts";
import type { StoredKeyed } from "./keyed-entities.ts";
import type { PlannedWrite, SuppressedItem } from "./plan.ts";
import type { WriteContext } from "./write-context.ts";

/** An address of a guest as the feed reports it. */
export interface FeedIp {
  address: string;
  prefixLength?: number | null;
  origin: string;
  interfaceName?: string | null;
  nicKey?: string | null;
  isAccepted: boolean;
}

/** Who appends an event: a sync (its run), or a change made outside one (no run). */
export type FeedContext = Pick<WriteContext, "connectionId" | "now"> & { syncRunId: string | null };

/** The fields common to every event of one sync about one subject. */
function eventOf(
  ctx: FeedContext,
  type: NewInventoryEvent["type"],
  subject: { id: string; name: string } | null,
  data: NewInventoryEvent["data"],
): NewInventoryEvent {
  return {
    type,
    connectionId: ctx.connectionId,
    syncRunId: ctx.syncRunId,
    subjectId: subject?.id ?? null,
    subjectName: subject?.name ?? null,
    data,
    at: ctx.now,
  };
}

// One address per (address, interface): the key ip_addresses is unique on per guest.
const ipKey = (ip: FeedIp) => `${ip.address}\u0000${ip.interfaceName ?? ""}`;

function acceptedByKey(ips: readonly FeedIp[]): Map<string, FeedIp> {
  return new Map(ips.filter((ip) => ip.isAccepted).map((ip) => [ipKey(ip), ip]));
}

const ipData = (ip: FeedIp) => ({
  address: ip.address,
  prefixLength: ip.prefixLength ?? null,
  interfaceName: ip.interfaceName || null,
  nicKey: ip.nicKey ?? null,
  origin: ip.origin,
});

/**
 * The events of one written guest: VM_ADDED, VM_RESTORED or VM_CHANGED (the diff vm_events
 * stores, old and new), then IP_ADDED / IP_REMOVED for its accepted addresses that came or went.
 * A reconfirmed guest — only its confirmation changed — has none.
 */
export function feedEventsOfWrite(
  ctx: WriteContext,
  write: PlannedWrite,
  id: string,
  diff: VmDiff,
  ips: { before: readonly FeedIp[]; after: readonly FeedIp[] } | undefined,
): NewInventoryEvent[] {
  const subject = { id, name: write.vm.name };
  const externalId = write.vm.externalId;
  const changes = { ...diff.moved, ...diff.changed };
  const events: NewInventoryEvent[] = [];
  if (write.change === "added") {
    events.push(eventOf(ctx, "VM_ADDED", subject, { externalId, listKey: write.listKey }));
  } else if (write.change === "restored") {
    events.push(
      eventOf(ctx, "VM_RESTORED", subject, { externalId, listKey: write.listKey, changes }),
    );
  } else if (write.change === "changed" && Object.keys(changes).length) {
    events.push(eventOf(ctx, "VM_CHANGED", subject, { externalId, changes }));
  }
  if (ips) events.push(...ipChangeEvents(ctx, subject, ips.before, ips.after));
  return events;
}

/** IP_ADDED / IP_REMOVED for a guest's accepted addresses that came or went. */
export function ipChangeEvents(
  ctx: FeedContext,
  subject: { id: string; name: string },
  ipsBefore: readonly FeedIp[],
  ipsAfter: readonly FeedIp[],
): NewInventoryEvent[] {
  const events: NewInventoryEvent[] = [];
  const before = acceptedByKey(ipsBefore);
  const after = acceptedByKey(ipsAfter);
  for (const [key, ip] of after) {
    if (!before.has(key)) events.push(eventOf(ctx, "IP_ADDED", subject, ipData(ip)));
  }
  for (const [key, ip] of before) {
    if (!after.has(key)) events.push(eventOf(ctx, "IP_REMOVED", subject, ipData(ip)));
  }
  return events;
}

/** VM_REMOVED of a tombstoned guest, with the reason stored on its row. */
export function vmRemovedEvent(
  ctx: WriteContext,
  row: { id: string; name: string; externalId: string },
  reason: string,
): NewInventoryEvent {
  return eventOf(ctx, "VM_REMOVED", row, { externalId: row.externalId, reason });
}

/** EDGE_GATEWAY_ADDED for new and reappearing gateways, EDGE_GATEWAY_REMOVED for tombstoned ones. */
export function edgeGatewayEvents(
  ctx: WriteContext,
  plan: {
    writes: { item: NeutralEdgeGateway; id: string; stored?: StoredKeyed }[];
    removals: StoredKeyed[];
  },
): NewInventoryEvent[] {
  const events: NewInventoryEvent[] = [];
  for (const { item, id, stored } of plan.writes) {
    // A gateway whose attributes changed is not in the feed: no event type describes it.
    if (stored && !stored.removedAt) continue;
    events.push(
      eventOf(
        ctx,
        "EDGE_GATEWAY_ADDED",
        { id, name: item.name },
        {
          externalId: item.externalId,
          orgName: item.orgName ?? null,
          restored: Boolean(stored),
        },
      ),
    );
  }
  for (const row of plan.removals) {
    events.push(eventOf(ctx, "EDGE_GATEWAY_REMOVED", row, { externalId: row.externalId }));
  }
  return events;
}

/**
 * The run-level events of a finished, non-preview sync: GUARD_FIRED per subject whose removals
 * the guard held back, and SYNC_PARTIAL or SYNC_FAILED when it did not fully succeed.
 */
export function runOutcomeEvents(
  ctx: WriteContext,
  outcome: "SUCCESS" | "PARTIAL" | "FAILED",
  details: { message: string; suppressed?: SuppressedItem[]; errorClass?: string; at: Date },
): NewInventoryEvent[] {
  const events: NewInventoryEvent[] = [];
  for (const item of details.suppressed ?? []) {
    if (item.kind !== "guard") continue;
    events.push({
      ...eventOf(ctx, "GUARD_FIRED", null, {
        subject: item.subject,
        known: item.known,
        present: item.present,
        heldBack: item.total,
        message: item.message,
      }),
      at: details.at,
    });
  }
  if (outcome === "PARTIAL") {
    const reasons = [...new Set((details.suppressed ?? []).map((item) => item.kind))];
    events.push({
      ...eventOf(ctx, "SYNC_PARTIAL", null, { message: details.message, reasons }),
      at: details.at,
    });
  } else if (outcome === "FAILED") {
    events.push(syncFailedEvent(ctx, { ...details, errorClass: details.errorClass ?? "internal" }));
  }
  return events;
}

/**
 * SYNC_FAILED of one run: a sync that failed itself, or a run another process closed after the
 * one running it died (docs/behaviour.md §14.5).
 */
export function syncFailedEvent(
  run: { connectionId: string; syncRunId: string },
  details: { message: string; errorClass: string; at: Date },
): NewInventoryEvent {
  return {
    type: "SYNC_FAILED",
    connectionId: run.connectionId,
    syncRunId: run.syncRunId,
    subjectId: null,
    subjectName: null,
    data: { message: details.message, errorClass: details.errorClass },
    at: details.at,
  };
}
