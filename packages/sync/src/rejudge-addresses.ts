// A rules change applied to what is stored (docs/behaviour.md §10.9): every guest's kept report is
// judged again by the new rules, without asking the hypervisor. `previewRulesChange` only tells
// what would change; `applyRulesChange` writes it, in the caller's transaction, with the feed's
// IP_ADDED / IP_REMOVED events, after locking the connections so no sync judges by the old rules
// at the same time.
import type { IpAddress, Prisma } from "@hyperlens/db";
import type {
  AddressRejectRule,
  CompiledAddressRules,
  NeutralIp,
  ServerText,
} from "@hyperlens/shared";
import { insertIpRows, type JudgedAddresses, judgeStored, storedConfirmedAt } from "./addresses.ts";
import { ipChangeEvents } from "./feed-events.ts";
import { appendInventoryEvents, type NewInventoryEvent } from "./inventory-events.ts";
import { ipIdentity } from "./normalize.ts";
import { Params, recordset, uuidList } from "./sql.ts";

type Db = Prisma.TransactionClient;

/** Guests judged per round trip: bounds memory on a 50,000-guest inventory. */
const BATCH = 500;

/** What the new rules do to one guest. */
export interface GuestAddressChange {
  vmId: string;
  name: string;
  connectionId: string;
  /** Addresses the guest gains. */
  added: string[];
  /** Addresses the guest loses, with the rule that now rejects them and why (as a code too). */
  dropped: {
    address: string;
    rule: AddressRejectRule;
    reason: string;
    reasonText?: ServerText;
  }[];
  primaryBefore: string | null;
  primaryAfter: string | null;
}

/** The totals of a rules change, and its first changed guests by name. */
export interface RulesChangeSummary {
  vmCount: number;
  changedVmCount: number;
  addedCount: number;
  droppedCount: number;
  primaryChangedCount: number;
  changes: GuestAddressChange[];
  isTruncated: boolean;
}

/** How a connection's guests are judged: its id and the rules that would apply. */
export interface RulesTarget {
  connectionId: string;
  rules: CompiledAddressRules;
}

interface StoredGuest {
  id: string;
  name: string;
  connectionId: string;
  reportedAddresses: Prisma.JsonValue;
  primaryAddress: string | null;
  confirmation: string;
  lastSeenAt: Date;
  removedAt: Date | null;
  nics: { key: string; mac: string | null }[];
  ips: IpAddress[];
}

interface Judged {
  guest: StoredGuest;
  after: JudgedAddresses;
  change: GuestAddressChange;
  isChanged: boolean;
}

const rowShape = (ip: Pick<NeutralIp, "nicKey" | "isAccepted" | "rejectRule" | "rejectReason">) =>
  `${ip.nicKey ?? ""}|${ip.isAccepted}|${ip.rejectRule ?? ""}|${ip.rejectReason ?? ""}`;

function judge(guest: StoredGuest, rules: CompiledAddressRules): Judged | undefined {
  const reported = guest.reportedAddresses as unknown as JudgedAddresses["reportedAddresses"];
  // A guest stored before reports were kept has none to judge until its next sync rewrites it:
  // judging nothing would drop every address it has.
  if (reported.length === 0 && guest.ips.length > 0) return undefined;
  const stored = { ...guest, reportedAddresses: reported };
  const after = judgeStored(
    reported,
    guest.nics,
    rules,
    storedConfirmedAt(stored, { now: guest.lastSeenAt, previousSuccessAt: null }, guest.lastSeenAt),
    guest.lastSeenAt,
  );
  const before = new Map(guest.ips.map((ip) => [ipIdentity(ip), ip]));
  const accepted = (ip: { isAccepted: boolean } | undefined) => ip?.isAccepted === true;
  const added = after.rows.filter(
    (row) => row.isAccepted && !accepted(before.get(ipIdentity(row))),
  );
  const dropped = after.rows.filter(
    (row) => !row.isAccepted && accepted(before.get(ipIdentity(row))),
  );
  const isChanged =
    after.primaryAddress !== guest.primaryAddress ||
    after.rows.length !== guest.ips.length ||
    after.rows.some((row) => {
      const old = before.get(ipIdentity(row));
      return !old || rowShape(old as unknown as NeutralIp) !== rowShape(row);
    });
  return {
    guest,
    after,
    isChanged,
    change: {
      vmId: guest.id,
      name: guest.name,
      connectionId: guest.connectionId,
      added: added.map((row) => row.address),
      dropped: dropped.map((row) => ({
        address: row.address,
        rule: row.rejectRule as AddressRejectRule,
        reason: row.rejectReason ?? "",
        ...(row.rejectReasonText ? { reasonText: row.rejectReasonText } : {}),
      })),
      primaryBefore: guest.primaryAddress,
      primaryAfter: after.primaryAddress,
    },
  };
}

/** Every stored guest of the targets judged by their rules, a batch at a time. */
async function* judgeAll(db: Db, targets: readonly RulesTarget[]): AsyncGenerator<Judged[]> {
  for (const target of targets) {
    let after: string | undefined;
    for (;;) {
      const guests: StoredGuest[] = await db.virtualMachine.findMany({
        where: { connectionId: target.connectionId, ...(after ? { id: { gt: after } } : {}) },
        orderBy: { id: "asc" },
        take: BATCH,
        select: {
          id: true,
          name: true,
          connectionId: true,
          reportedAddresses: true,
          primaryAddress: true,
          confirmation: true,
          lastSeenAt: true,
          removedAt: true,
          nics: { select: { key: true, mac: true } },
          ips: true,
        },
      });
      if (guests.length === 0) break;
      after = guests.at(-1)?.id;
      yield guests.flatMap((guest) => judge(guest, target.rules) ?? []);
    }
  }
}

function summarize(limit: number) {
  const summary: RulesChangeSummary = {
    vmCount: 0,
    changedVmCount: 0,
    addedCount: 0,
    droppedCount: 0,
    primaryChangedCount: 0,
    changes: [],
    isTruncated: false,
  };
  const add = (judged: Judged) => {
    summary.vmCount += 1;
    if (!judged.isChanged) return;
    const { change } = judged;
    summary.changedVmCount += 1;
    summary.addedCount += change.added.length;
    summary.droppedCount += change.dropped.length;
    if (change.primaryBefore !== change.primaryAfter) summary.primaryChangedCount += 1;
    if (
      change.added.length ||
      change.dropped.length ||
      change.primaryBefore !== change.primaryAfter
    ) {
      summary.changes.push(change);
    }
  };
  const finish = () => {
    summary.changes.sort((a, b) => a.name.localeCompare(b.name) || a.vmId.localeCompare(b.vmId));
    summary.isTruncated = summary.changes.length > limit;
    summary.changes = summary.changes.slice(0, limit);
    return summary;
  };
  return { add, finish };
}

/** What the rules would change, guest by guest; writes nothing and asks no hypervisor. */
export async function previewRulesChange(
  db: Db,
  targets: readonly RulesTarget[],
  limit = 200,
): Promise<RulesChangeSummary> {
  const summary = summarize(limit);
  for await (const batch of judgeAll(db, targets)) for (const judged of batch) summary.add(judged);
  return summary.finish();
}

/**
 * Applies the rules to the stored guests of the targets, in the caller's transaction (which also
 * stores the rules and its audit entry first: the feed's events go last): locks their connections first (docs/behaviour.md §10.9), rewrites the
 * address rows and primary address of each guest they change, and appends IP_ADDED /
 * IP_REMOVED for the accepted addresses that came or went.
 */
export async function applyRulesChange(
  db: Db,
  targets: readonly RulesTarget[],
  now: Date,
  limit = 200,
): Promise<RulesChangeSummary> {
  if (targets.length) {
    const params = new Params();
    const ids = uuidList(
      params,
      targets.map((t) => t.connectionId),
    );
    await db.$queryRawUnsafe(
      `SELECT "id" FROM connections WHERE "id" IN ${ids} FOR UPDATE`,
      ...params.values,
    );
  }
  const summary = summarize(limit);
  const feed: NewInventoryEvent[] = [];
  for await (const batch of judgeAll(db, targets)) {
    const changed = batch.filter((judged) => judged.isChanged);
    for (const judged of batch) summary.add(judged);
    if (changed.length === 0) continue;
    const params = new Params();
    const ids = uuidList(
      params,
      changed.map((j) => j.guest.id),
    );
    await db.$executeRawUnsafe(`DELETE FROM ip_addresses WHERE "vmId" IN ${ids}`, ...params.values);
    await insertIpRows(
      db,
      changed.flatMap((j) => j.after.rows.map((row) => ({ ...row, vmId: j.guest.id }))),
    );
    const primaries = new Params();
    const { from } = recordset(
      primaries,
      [
        { name: "id", cast: "uuid", value: (j: Judged) => j.guest.id },
        { name: "primaryAddress", cast: "text", value: (j: Judged) => j.after.primaryAddress },
      ],
      changed,
    );
    await db.$executeRawUnsafe(
      // changedAt moves: the exports' ETags and "changed since" filters see the new addresses.
      `UPDATE virtual_machines v SET "primaryAddress" = r."primaryAddress", "changedAt" = ${primaries.add(now.toISOString(), "timestamptz")}
       FROM ${from} WHERE v."id" = r."id"::uuid`,
      ...primaries.values,
    );
    for (const j of changed) {
      feed.push(
        ...ipChangeEvents(
          { connectionId: j.guest.connectionId, syncRunId: null, now },
          { id: j.guest.id, name: j.guest.name },
          j.guest.ips,
          j.after.rows,
        ),
      );
    }
  }
  // TRAP: docs/behaviour.md §14.1 — last: the feed's lock is held from here to commit.
  await appendInventoryEvents(db, feed);
  return summary.finish();
}
