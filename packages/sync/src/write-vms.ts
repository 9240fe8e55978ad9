import { randomUUID } from "node:crypto";
import { type PrismaClient, type RawSql, rawTransaction } from "@hyperlens/db";
import {
  effectiveReportedAt,
  type GuestValueField,
  type NeutralDisk,
  type NeutralNic,
} from "@hyperlens/shared";
import { compiledAddressRules, readEffectiveAddressRules } from "./address-rules-store.ts";
import { type IpRow, insertIpRows, withResolvedAddresses } from "./addresses.ts";
import { diffWrite, eventsOfWrite, type PlannedEvent } from "./changes.ts";
import { feedEventsOfWrite } from "./feed-events.ts";
import { appendInventoryEvents, type NewInventoryEvent } from "./inventory-events.ts";
import type { PlannedWrite } from "./plan.ts";
import { loadPrevious, type PreviousVm } from "./previous.ts";
import {
  bigintParam,
  type Column,
  insertRows,
  Params,
  recordset,
  textArrayParam,
  uuidList,
} from "./sql.ts";
import type { WriteContext } from "./write-context.ts";

/**
 * Guests per transaction: bounds what a crash can roll back and how long a lock is held, and on
 * the embedded database the memory one statement needs — PGlite's WebAssembly memory never
 * shrinks, and at 1,000 guests a chunk grew it by 24 MB, at 250 by 10 MB (10,000 vCenter guests,
 * about 0.5 s longer in all).
 */
export const VM_CHUNK_SIZE = 250;

const VM_COLUMNS: Column<PlannedWrite>[] = (<[string, string, (w: PlannedWrite) => unknown][]>[
  ["externalId", "text", (w) => w.vm.externalId],
  ["listKey", "text", (w) => w.listKey],
  ["name", "text", (w) => w.vm.name],
  ["nameSort", "text", (w) => w.vm.name.toLowerCase()],
  ["kind", '"GuestKind"', (w) => w.vm.kind],
  ["state", '"PowerState"', (w) => w.vm.state],
  ["cpuCount", "int", (w) => w.vm.cpuCount],
  ["memoryBytes", "bigint", (w) => bigintParam(w.vm.memoryBytes)],
  ["diskTotalBytes", "bigint", (w) => bigintParam(w.vm.diskTotalBytes)],
  ["guestOs", "text", (w) => w.vm.guestOs],
  ["guestOsCode", "text", (w) => w.vm.guestOsCode],
  ["biosUuid", "text", (w) => w.vm.biosUuid],
  ["instanceUuid", "text", (w) => w.vm.instanceUuid],
  ["isTemplate", "boolean", (w) => w.vm.isTemplate],
  ["tags", "text[]", (w) => textArrayParam(w.vm.tags)],
  ["nodeName", "text", (w) => w.vm.location.nodeName],
  ["clusterName", "text", (w) => w.vm.location.clusterName],
  ["datacenterName", "text", (w) => w.vm.location.datacenterName],
  ["hostName", "text", (w) => w.vm.location.hostName],
  ["orgName", "text", (w) => w.vm.location.orgName],
  ["vdcName", "text", (w) => w.vm.location.vdcName],
  ["vappName", "text", (w) => w.vm.location.vappName],
  ["details", "jsonb", (w) => w.vm.details],
  ["fingerprint", "text", (w) => w.fingerprint],
  ["backingVcenterId", "text", (w) => w.vm.backing?.vcenterId],
  ["backingMoref", "text", (w) => w.vm.backing?.moref],
  ["guestReport", "jsonb", (w) => w.vm.guestReport],
  ["reportedAddresses", "jsonb", (w) => w.vm.reportedAddresses],
  ["primaryAddress", "text", (w) => w.vm.primaryAddress],
  ["id", "uuid", (w) => w.stored?.id ?? randomUUID()],
]).map(([name, cast, value]) => ({ name, cast, value }));

/**
 * Written only with the guest's children: a guest rewritten just to confirm it keeps the addresses
 * its stored report was judged into (a rules change may have judged it since).
 */
const WITH_CHILDREN = new Set(["reportedAddresses", "primaryAddress"]);

const UPDATED = VM_COLUMNS.filter((c) => c.name !== "id")
  .map((c) =>
    WITH_CHILDREN.has(c.name)
      ? `"${c.name}" = CASE WHEN virtual_machines."fingerprint" IS DISTINCT FROM EXCLUDED."fingerprint"
           THEN EXCLUDED."${c.name}" ELSE virtual_machines."${c.name}" END`
      : `"${c.name}" = EXCLUDED."${c.name}"`,
  )
  .join(", ");

/**
 * Upserts guests in one statement. The WHERE makes an unchanged, confirmed, live row a no-op even
 * if it reaches the statement; RETURNING lists only rows actually written.
 */
async function upsertVms(
  db: RawSql,
  ctx: WriteContext,
  writes: PlannedWrite[],
): Promise<Map<string, string>> {
  const params = new Params();
  const connection = params.add(ctx.connectionId, "uuid");
  const source = params.add(ctx.source, '"ConnectionKind"');
  const now = params.add(ctx.now.toISOString(), "timestamptz");
  const { select, from } = recordset(params, VM_COLUMNS, writes);
  const names = VM_COLUMNS.map((c) => `"${c.name}"`).join(",");
  const rows = await db.$queryRawUnsafe<{ id: string; externalId: string }[]>(
    `INSERT INTO virtual_machines (${names},"connectionId","source","confirmation","firstSeenAt","lastSeenAt","changedAt")
     SELECT ${select},${connection},${source},'CONFIRMED',${now},${now},${now} FROM ${from}
     ON CONFLICT ("connectionId","externalId") DO UPDATE SET ${UPDATED},
       "confirmation" = 'CONFIRMED',
       "lastSeenAt" = EXCLUDED."lastSeenAt",
       "changedAt" = CASE WHEN virtual_machines."fingerprint" IS DISTINCT FROM EXCLUDED."fingerprint"
         THEN EXCLUDED."changedAt" ELSE virtual_machines."changedAt" END,
       "removedAt" = NULL, "removedBySyncId" = NULL, "removedReason" = NULL
     WHERE virtual_machines."fingerprint" IS DISTINCT FROM EXCLUDED."fingerprint"
        OR virtual_machines."removedAt" IS NOT NULL
        OR virtual_machines."confirmation" <> 'CONFIRMED'
     RETURNING "id", "externalId"`,
    ...params.values,
  );
  return new Map(rows.map((row) => [row.externalId, row.id]));
}

interface GuestValueRow {
  vmId: string;
  field: GuestValueField;
  value: string;
  reportedAt: Date;
  notReportedSince: Date | null;
}

/**
 * The guest-reported values a rewritten guest will have (docs/behaviour.md §10.10): what the agent reported now, and each earlier value it did not report this time, kept with
 * the time a sync last saw it and the first sync that did not.
 */
function guestValueRowsOf(
  ctx: WriteContext,
  write: PlannedWrite,
  vmId: string,
  previous: PreviousVm | undefined,
): GuestValueRow[] {
  const fresh = write.vm.guestValues ?? {};
  const rows: GuestValueRow[] = Object.entries(fresh).map(([field, value]) => ({
    vmId,
    field: field as GuestValueField,
    value,
    reportedAt: ctx.now,
    notReportedSince: null,
  }));
  if (!previous) return rows;
  const previousSync = { lastSuccessAt: ctx.previousSuccessAt };
  // TRAP: docs/behaviour.md §10.10 — without it one missed agent call resets a hostname to unknown.
  for (const kept of previous.guestValues) {
    if (kept.field in fresh) continue;
    rows.push({
      vmId,
      field: kept.field as GuestValueField,
      value: kept.value,
      reportedAt: effectiveReportedAt(kept, previous, previousSync),
      notReportedSince: kept.notReportedSince ?? ctx.now,
    });
  }
  return rows;
}

/** A guest whose children are replaced, with the address and guest-value rows it gets. */
interface Rewritten {
  write: PlannedWrite;
  id: string;
  ips: (IpRow & { vmId: string })[];
  guestValues: GuestValueRow[];
}

/** Replaces the NICs, IPs and disks of rewritten guests; returns rows written. */
async function replaceChildren(db: RawSql, rewritten: Rewritten[]): Promise<number> {
  if (rewritten.length === 0) return 0;
  // A guest inserted just now has no children to delete.
  const ids = rewritten.flatMap((r) => (r.write.stored ? [r.id] : []));
  let written = 0;
  for (const table of ids.length ? ["nics", "ip_addresses", "disks", "guest_values"] : []) {
    const params = new Params();
    written += await db.$executeRawUnsafe(
      `DELETE FROM ${table} WHERE "vmId" IN ${uuidList(params, ids)}`,
      ...params.values,
    );
  }
  const nics: (NeutralNic & { vmId: string })[] = [];
  const disks: (NeutralDisk & { vmId: string })[] = [];
  const ips: (IpRow & { vmId: string })[] = [];
  const guestValues: GuestValueRow[] = [];
  for (const { write, id, ips: rows, guestValues: values } of rewritten) {
    for (const nic of write.vm.nics) nics.push({ ...nic, vmId: id });
    for (const disk of write.vm.disks) disks.push({ ...disk, vmId: id });
    ips.push(...rows);
    guestValues.push(...values);
  }
  const uuid = () => randomUUID();
  written += await insertRows(
    db,
    "nics",
    [
      { name: "id", cast: "uuid", value: uuid },
      { name: "vmId", cast: "uuid", value: (n) => n.vmId },
      { name: "key", cast: "text", value: (n) => n.key },
      { name: "label", cast: "text", value: (n) => n.label },
      { name: "mac", cast: "text", value: (n) => n.mac },
      { name: "network", cast: "text", value: (n) => n.network },
      { name: "model", cast: "text", value: (n) => n.model },
      { name: "isConnected", cast: "boolean", value: (n) => n.isConnected },
      { name: "vlan", cast: "int", value: (n) => n.vlan },
    ],
    nics,
  );
  written += await insertRows(
    db,
    "disks",
    [
      { name: "id", cast: "uuid", value: uuid },
      { name: "vmId", cast: "uuid", value: (d) => d.vmId },
      { name: "key", cast: "text", value: (d) => d.key },
      { name: "label", cast: "text", value: (d) => d.label },
      { name: "capacityBytes", cast: "bigint", value: (d) => bigintParam(d.capacityBytes) },
      { name: "storage", cast: "text", value: (d) => d.storage },
      { name: "busType", cast: "text", value: (d) => d.busType },
    ],
    disks,
  );
  written += await insertIpRows(db, ips);
  written += await insertRows(
    db,
    "guest_values",
    [
      { name: "id", cast: "uuid", value: uuid },
      { name: "vmId", cast: "uuid", value: (v) => v.vmId },
      { name: "field", cast: "text", value: (v) => v.field },
      { name: "value", cast: "text", value: (v) => v.value },
      { name: "reportedAt", cast: "timestamptz", value: (v) => v.reportedAt.toISOString() },
      {
        name: "notReportedSince",
        cast: "timestamptz",
        value: (v) => v.notReportedSince?.toISOString(),
      },
    ],
    guestValues,
  );
  return written;
}

/** Inserts history events in bulk; returns rows written. */
export async function insertEvents(
  db: RawSql,
  ctx: WriteContext,
  events: (PlannedEvent & { vmId: string })[],
): Promise<number> {
  return insertRows(
    db,
    "vm_events",
    [
      { name: "id", cast: "uuid", value: () => randomUUID() },
      { name: "vmId", cast: "uuid", value: (e) => e.vmId },
      { name: "syncRunId", cast: "uuid", value: () => ctx.syncRunId },
      { name: "at", cast: "timestamptz", value: () => ctx.now.toISOString() },
      { name: "type", cast: '"VmEventType"', value: (e) => e.type },
      { name: "changes", cast: "jsonb", value: (e) => e.changes },
    ],
    events,
  );
}

/**
 * Writes one chunk of guests — rows, children and events — in one transaction, so a crash never
 * leaves a guest without its NICs. `alsoCommit` runs last in the same transaction with the rows
 * written (the run's counts). Returns rows written.
 */
export async function writeVmChunk(
  prisma: PrismaClient,
  ctx: WriteContext,
  writes: PlannedWrite[],
  alsoCommit?: (db: RawSql, written: number) => Promise<void>,
): Promise<number> {
  if (writes.length === 0) return 0;
  // Read before the transaction opens: only this sync, holding the connection's lease, writes
  // these guests, so the rows cannot change in between.
  const previous = await loadPrevious(
    prisma,
    writes.flatMap((w) => (w.stored && w.isContentChanged ? [w.stored.id] : [])),
  );
  const { total, appended } = await rawTransaction(prisma, async (db) => {
    // TRAP: docs/behaviour.md §10.9 — read under the connection's share lock: a rules change
    // saved while this sync ran must not be overwritten by rules it replaced.
    const { rules } = await readEffectiveAddressRules(db, ctx.connectionId, "share");
    const compiled = compiledAddressRules(rules);
    const resolved = writes.map((write) =>
      withResolvedAddresses(
        write,
        write.stored ? previous.get(write.stored.id) : undefined,
        compiled,
        ctx,
      ),
    );
    const written = await upsertVms(
      db,
      ctx,
      resolved.map((r) => r.write),
    );
    const rewritten: Rewritten[] = [];
    const events: (PlannedEvent & { vmId: string })[] = [];
    const feed: NewInventoryEvent[] = [];
    for (const { write, addresses } of resolved) {
      const id = written.get(write.vm.externalId);
      if (!id) continue;
      const before = write.stored ? previous.get(write.stored.id) : undefined;
      const diff = diffWrite(write, before);
      let ips: Parameters<typeof feedEventsOfWrite>[4];
      if (addresses) {
        const rows = addresses.rows.map((row) => ({ ...row, vmId: id }));
        rewritten.push({
          write,
          id,
          ips: rows,
          guestValues: guestValueRowsOf(ctx, write, id, before),
        });
        ips = { before: before?.ips ?? [], after: rows };
      }
      for (const event of eventsOfWrite(write, diff)) events.push({ ...event, vmId: id });
      feed.push(...feedEventsOfWrite(ctx, write, id, diff, ips));
    }
    const total =
      written.size + (await replaceChildren(db, rewritten)) + (await insertEvents(db, ctx, events));
    await alsoCommit?.(db, total);
    // TRAP: docs/behaviour.md §14.1 — last: the feed's lock is held from here to commit.
    return { total, appended: await appendInventoryEvents(db, feed) };
  });
  if (appended) ctx.onFeedAdvanced?.();
  return total;
}
