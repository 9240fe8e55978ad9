// A guest's addresses as stored (docs/behaviour.md §10.9): the raw report it keeps, judged by the
// connection's address rules into address rows and a primary address. The sync resolves a guest
// it rewrites; a rules change re-judges what is stored. Both go through `judgeStored`, so a guest
// reads the same whichever wrote it last.
import { randomUUID } from "node:crypto";
import type { IpAddress, RawSql } from "@hyperlens/db";
import {
  addressKey,
  applyAddressRules,
  type CompiledAddressRules,
  effectiveIpConfirmedAt,
  type NeutralIp,
  type NeutralVm,
  type ReportedAddress,
  type RuleNic,
} from "@hyperlens/shared";
import { ipIdentity, normalizeReported } from "./normalize.ts";
import type { PlannedWrite } from "./plan.ts";
import { insertRows } from "./sql.ts";

/** An address row as stored. */
export interface IpRow extends NeutralIp {
  lastConfirmedAt: Date;
  isLastKnown: boolean;
}

/** What the rules made of a guest's stored report. */
export interface JudgedAddresses {
  /** The report as stored: this read's addresses and the last-known ones carried over. */
  reportedAddresses: ReportedAddress[];
  rows: IpRow[];
  primaryAddress: string | null;
}

/** The stored guest a resolution carries last-known addresses and their times from. */
export interface StoredAddresses {
  reportedAddresses: ReportedAddress[];
  ips: IpAddress[];
  confirmation: string;
  lastSeenAt: Date;
  removedAt: Date | null;
}

/** When the rows were confirmed: the sync's own time, and the previous sync's for last-known ones. */
export interface AddressClock {
  now: Date;
  previousSuccessAt: Date | null;
}

const byIdentity = (a: { address: string; interfaceName?: string }, b: typeof a) =>
  ipIdentity(a) < ipIdentity(b) ? -1 : ipIdentity(a) > ipIdentity(b) ? 1 : 0;

/**
 * The report of a guest stored before reports were kept: its agent addresses rebuilt from its
 * rows (with the MAC of the NIC each was on), so an upgrade does not lose the last-known ones of
 * a guest whose agent is silent.
 */
function reportOfRows(ips: readonly IpAddress[], nics: readonly RuleNic[]): ReportedAddress[] {
  return ips
    .filter((ip) => ip.origin === "AGENT")
    .map((ip) => {
      const mac = nics.find((nic) => nic.key === ip.nicKey)?.mac;
      return {
        address: ip.address,
        origin: "AGENT",
        reportedBy: "guest",
        ...(ip.prefixLength === null ? {} : { prefixLength: ip.prefixLength }),
        ...(ip.interfaceName ? { interfaceName: ip.interfaceName } : {}),
        ...(mac ? { mac } : {}),
        ...(ip.isLastKnown ? { isLastKnown: true } : {}),
      };
    });
}

function storedReport(stored: StoredAddresses, nics: readonly RuleNic[]): ReportedAddress[] {
  return stored.reportedAddresses.length
    ? stored.reportedAddresses
    : reportOfRows(stored.ips, nics);
}

/**
 * Judges a stored report by the rules. Last-known addresses keep the time a read last held them;
 * the others are confirmed at `confirmedAt`.
 */
export function judgeStored(
  reportedAddresses: ReportedAddress[],
  nics: readonly RuleNic[],
  rules: CompiledAddressRules,
  lastConfirmedAt: (ip: NeutralIp) => Date,
  confirmedAt: Date,
): JudgedAddresses {
  const outcome = applyAddressRules(reportedAddresses, nics, rules);
  const rows = outcome.ips
    .map((ip, i): IpRow => {
      const isLastKnown = reportedAddresses[i]?.isLastKnown === true;
      return {
        ...ip,
        isLastKnown,
        lastConfirmedAt: isLastKnown ? lastConfirmedAt(ip) : confirmedAt,
      };
    })
    .sort(byIdentity);
  return { reportedAddresses, rows, primaryAddress: outcome.primaryAddress ?? null };
}

/** When a stored row was last confirmed, by its identity; `fallback` for one it has no row of. */
export function storedConfirmedAt(
  stored: StoredAddresses,
  clock: AddressClock,
  fallback: Date,
): (ip: NeutralIp) => Date {
  const rows = new Map(stored.ips.map((row) => [ipIdentity(row), row]));
  const previousSync = { lastSuccessAt: clock.previousSuccessAt };
  return (ip) => {
    const row = rows.get(ipIdentity(ip));
    return row ? effectiveIpConfirmedAt(row, stored, previousSync) : fallback;
  };
}

/**
 * The addresses of a guest this sync rewrites: what the source reported now, and — while the
 * agent is silent — the agent addresses an earlier read held (docs/behaviour.md §10.2), all
 * judged by the connection's rules.
 */
export function resolveAddresses(
  vm: NeutralVm,
  previous: StoredAddresses | undefined,
  rules: CompiledAddressRules,
  clock: AddressClock,
): JudgedAddresses {
  const fresh = normalizeReported(vm.reportedAddresses).map(({ isLastKnown: _, ...r }) => r);
  const freshIds = new Set(fresh.map(ipIdentity));
  // TRAP: docs/behaviour.md §10.2 — without it a stopped VM loses the addresses it had.
  const carried =
    !vm.ipsFromGuestAreLive && previous
      ? storedReport(previous, vm.nics)
          .filter((r) => r.origin === "AGENT" && !freshIds.has(ipIdentity(r)))
          .map((r): ReportedAddress => ({ ...r, isLastKnown: true }))
      : [];
  const confirmedAt = previous
    ? storedConfirmedAt(previous, clock, clock.previousSuccessAt ?? clock.now)
    : () => clock.now;
  return judgeStored([...fresh, ...carried], vm.nics, rules, confirmedAt, clock.now);
}

/**
 * A planned write with its addresses judged: for a guest whose content changed, the rows and
 * report it will store (its `vm.ips` the rows of this read, as its diff compares them); any
 * other write leaves the stored addresses as they are.
 */
export function withResolvedAddresses(
  write: PlannedWrite,
  previous: StoredAddresses | undefined,
  rules: CompiledAddressRules,
  clock: AddressClock,
): { write: PlannedWrite; addresses?: JudgedAddresses } {
  if (!write.isContentChanged) return { write };
  const addresses = resolveAddresses(write.vm, previous, rules, clock);
  const ips = addresses.rows
    .filter((row) => !row.isLastKnown)
    .map(({ isLastKnown: _, lastConfirmedAt: __, ...ip }) => ip);
  // The adapter's primary was picked by the shipped rules: the connection's rules replace it.
  const { primaryAddress: _, ...read } = write.vm;
  const { primaryAddress, reportedAddresses } = addresses;
  const vm = { ...read, ips, reportedAddresses, ...(primaryAddress ? { primaryAddress } : {}) };
  return { write: { ...write, vm }, addresses };
}

/** Inserts address rows; returns rows written. */
export function insertIpRows(db: RawSql, rows: (IpRow & { vmId: string })[]): Promise<number> {
  return insertRows(
    db,
    "ip_addresses",
    [
      { name: "id", cast: "uuid", value: () => randomUUID() },
      { name: "vmId", cast: "uuid", value: (i) => i.vmId },
      { name: "nicKey", cast: "text", value: (i) => i.nicKey },
      { name: "address", cast: "text", value: (i) => i.address },
      { name: "addressKey", cast: "text", value: (i) => addressKey(i.address) },
      { name: "prefixLength", cast: "int", value: (i) => i.prefixLength },
      { name: "origin", cast: '"IpOrigin"', value: (i) => i.origin },
      { name: "interfaceName", cast: "text", value: (i) => i.interfaceName ?? "" },
      { name: "isAccepted", cast: "boolean", value: (i) => i.isAccepted },
      { name: "rejectReason", cast: "text", value: (i) => i.rejectReason },
      { name: "rejectReasonText", cast: "jsonb", value: (i) => i.rejectReasonText ?? null },
      { name: "rejectRule", cast: "text", value: (i) => i.rejectRule },
      {
        name: "lastConfirmedAt",
        cast: "timestamptz",
        value: (i) => i.lastConfirmedAt.toISOString(),
      },
      { name: "isLastKnown", cast: "boolean", value: (i) => i.isLastKnown },
    ],
    rows,
    'ON CONFLICT ("vmId","address","interfaceName") DO NOTHING',
  );
}
