// The guests of an inventory export as hosts, page by page (docs/behaviour.md §14.10–§14.13): the
// viewer's guests that match the filter, each with a unique, stable host name and a primary
// address. Only their ids are held at once; rows are read and written a page at a time.
import { BlockList } from "node:net";
import { type Prisma, type PrismaClient, rawQuery } from "@hyperlens/db";
import type { ConnectionKind } from "@hyperlens/shared";
import type { Viewer } from "../auth/viewer.ts";
import { visibleConnections, visibleVms } from "../auth/visibility.ts";
import { vmGlobalId } from "../schema/virtual-machine.ts";
import { type AddressPreference, familyOf } from "./inventory-query.ts";

/** Joins a page's lists in SQL; no tag, address or MAC holds it. */
const SEPARATOR = "\\x1f";

/** Guests per read: bounds what the server holds while the response streams. */
export const HOST_PAGE_SIZE = 500;

/** Pages read ahead of the one being written out. */
const READ_AHEAD = 3;

/**
 * The columns an export shows, for one page of ids, in one statement: the filter already chose
 * the ids (through the unified list's own condition), so this only projects. Plain arrays instead
 * of the JSON rowsByIdReader builds: over 50,000 guests on PostgreSQL its pages took 1.3–1.5 s,
 * this statement about half that (2026-12-05). Lists come back joined by a control character and
 * are split here: pg's parser of text arrays was a fifth of the server's CPU in the export bench.
 * MACs are looked up only for an export that shows them (Prometheus' labels do not).
 */
const hostsById = (withMacs: boolean) => `
  SELECT v.id, v.name, v.source, v."connectionId", v.kind, v.state, v."cpuCount",
    v."memoryBytes"::float8 AS "memoryBytes", v."guestOs", v."nodeName", v."clusterName",
    v."datacenterName", v."hostName", v."orgName", v."vdcName", v."vappName", v."primaryAddress",
    array_to_string(v.tags, E'${SEPARATOR}') AS tags,
    array_to_string(ARRAY(SELECT i.address FROM ip_addresses i
      -- TRAP: docs/behaviour.md §14.11 — a rejected or last-known address is no address to reach the guest at.
      WHERE i."vmId" = v.id AND i."isAccepted" AND NOT i."isLastKnown"), E'${SEPARATOR}') AS ips,
    ${
      withMacs
        ? `array_to_string(ARRAY(SELECT n.mac FROM nics n WHERE n."vmId" = v.id AND n.mac IS NOT NULL
      ORDER BY n.key), E'${SEPARATOR}')`
        : "''"
    } AS macs
  FROM virtual_machines v
  WHERE v.id BETWEEN $2::uuid AND $3::uuid AND v.id = ANY($1::uuid[])
  ORDER BY v.id`;
const HOSTS_BY_ID = { withMacs: hostsById(true), withoutMacs: hostsById(false) };

/** One row of {@link hostsById}, its lists split. */
export interface HostRow {
  id: string;
  name: string;
  source: ConnectionKind;
  connectionId: string;
  kind: string;
  state: string;
  cpuCount: number | null;
  memoryBytes: number | null;
  guestOs: string | null;
  tags: string[];
  nodeName: string | null;
  clusterName: string | null;
  datacenterName: string | null;
  hostName: string | null;
  orgName: string | null;
  vdcName: string | null;
  vappName: string | null;
  /** The address rules' primary (docs/behaviour.md §10.9), possibly a last-known one. */
  primaryAddress: string | null;
  ips: string[];
  macs: string[];
}

/** One guest as an export shows it. */
export interface InventoryHost {
  /** Unique among the viewer's live guests, and the same from one export to the next. */
  hostName: string;
  /** The guest's global id (as the GraphQL API names it). */
  globalId: string;
  row: HostRow;
  connectionName: string;
  /** Accepted, current addresses, the primary one first; undefined primary when there is none. */
  addresses: string[];
  primaryAddress: string | undefined;
  /** MAC addresses of its NICs, in NIC order; empty when the export was asked without them. */
  macs: string[];
}

export interface HostReadOptions {
  /** Guests per read. */
  pageSize?: number;
  /** Whether to look up the guests' MAC addresses (default true). */
  withMacs?: boolean;
}

/** A name another visible guest also bears takes this suffix: the first 8 hex digits of its id. */
export function suffixedHostName(name: string, id: string): string {
  return `${name}-${id.replaceAll("-", "").slice(0, 8)}`;
}

/**
 * The ids of guests whose name (any case) an earlier-seen live guest the viewer sees also bears:
 * they are exported as {@link suffixedHostName}. Counted over every live guest the viewer sees,
 * not only those the filter lists, so a host is named alike in every filtered export; and the
 * first seen keeps the bare name, so a newcomer never renames a host that was there.
 */
async function idsNeedingSuffix(prisma: PrismaClient, viewer: Viewer): Promise<Set<string>> {
  const live = { AND: [visibleVms(viewer), { removedAt: null }] };
  const shared = await prisma.virtualMachine.groupBy({
    by: ["nameSort"],
    where: live,
    having: { nameSort: { _count: { gt: 1 } } },
  });
  if (shared.length === 0) return new Set();
  const bearers = await prisma.virtualMachine.findMany({
    where: { AND: [live, { nameSort: { in: shared.map((s) => s.nameSort) } }] },
    select: { id: true, nameSort: true },
    orderBy: [{ firstSeenAt: "asc" }, { id: "asc" }],
  });
  const named = new Set<string>();
  const suffixed = new Set<string>();
  for (const { id, nameSort } of bearers) {
    if (named.has(nameSort)) suffixed.add(id);
    else named.add(nameSort);
  }
  return suffixed;
}

/** Where an address falls in the preference: lower sorts first. */
function rank(
  address: string,
  preference: AddressPreference,
  networks: readonly BlockList[],
): [number, number] {
  const family = familyOf(address);
  const subnet = family ? networks.findIndex((network) => network.check(address, family)) : -1;
  return [subnet === -1 ? networks.length : subnet, family === preference.family ? 0 : 1];
}

/** One BlockList per listed subnet, so the index of the first match is the subnet's rank. */
const subnetLists = new WeakMap<AddressPreference, BlockList[]>();

function networksOf(preference: AddressPreference): BlockList[] {
  let lists = subnetLists.get(preference);
  if (!lists) {
    lists = preference.subnets.map((subnet) => {
      const list = new BlockList();
      list.addSubnet(subnet.address, subnet.prefix, subnet.family);
      return list;
    });
    subnetLists.set(preference, lists);
  }
  return lists;
}

/**
 * A guest's accepted, current addresses in preference order: by the listed subnets, then the
 * preferred family, then as text — the first is its primary address.
 */
export function orderAddresses(addresses: string[], preference: AddressPreference): string[] {
  const networks = networksOf(preference);
  const ranked = addresses.map((address) => ({
    address,
    rank: rank(address, preference, networks),
  }));
  ranked.sort(
    (x, y) =>
      x.rank[0] - y.rank[0] ||
      x.rank[1] - y.rank[1] ||
      (x.address < y.address ? -1 : x.address > y.address ? 1 : 0),
  );
  return [...new Set(ranked.map((r) => r.address))];
}

const split = (joined: string): string[] => (joined ? joined.split("\x1f") : []);

/**
 * A guest's accepted, current addresses, its primary first: the one the address rules picked
 * (docs/behaviour.md §10.9), or — when the request or the server states a preference — the first
 * in that order. A primary that is only last-known is no address to reach the guest at.
 */
export function exportAddresses(
  row: Pick<HostRow, "ips" | "primaryAddress">,
  preference: AddressPreference | undefined,
): string[] {
  if (preference) return orderAddresses(row.ips, preference);
  const addresses = [...new Set(row.ips)].sort();
  const primary = row.primaryAddress;
  if (primary === null || !addresses.includes(primary)) return addresses;
  return [primary, ...addresses.filter((address) => address !== primary)];
}

/** What the filter and visibility allow, in `HOST_PAGE_SIZE` pages by id. */
export async function* inventoryHosts(
  prisma: PrismaClient,
  viewer: Viewer,
  where: Prisma.VirtualMachineWhereInput,
  preference: AddressPreference | undefined,
  { pageSize = HOST_PAGE_SIZE, withMacs = true }: HostReadOptions = {},
): AsyncGenerator<InventoryHost[]> {
  const statement = withMacs ? HOSTS_BY_ID.withMacs : HOSTS_BY_ID.withoutMacs;
  const [suffixed, connections] = await Promise.all([
    idsNeedingSuffix(prisma, viewer),
    prisma.connection.findMany({
      where: visibleConnections(viewer),
      select: { id: true, name: true },
    }),
  ]);
  const connectionNames = new Map(connections.map((c) => [c.id, c.name]));
  // The ids the filter and visibility allow, at once (50,000 ids are 4 MB, read in one indexed
  // pass); the rows, with their addresses, a page at a time.
  const ids = (
    await prisma.virtualMachine.findMany({
      // TRAP: docs/behaviour.md §7.9 — an export lists only the viewer's connections' guests.
      where: { AND: [where, visibleVms(viewer)] },
      orderBy: { id: "asc" },
      select: { id: true },
    })
  ).map((row) => row.id);
  const readPage = async (start: number) => {
    if (start >= ids.length) return undefined;
    type Joined = Omit<HostRow, "tags" | "ips" | "macs"> & Record<"tags" | "ips" | "macs", string>;
    const page = ids.slice(start, start + pageSize);
    const rows = await rawQuery<Joined>(prisma, statement, [page, page[0], page.at(-1)]);
    // Split in place: a second object per guest is garbage the collector pays for.
    for (const row of rows as unknown as Record<"tags" | "ips" | "macs", string | string[]>[]) {
      row.tags = split(row.tags as string);
      row.ips = split(row.ips as string);
      row.macs = split(row.macs as string);
    }
    return rows as unknown as HostRow[];
  };
  // The pages after this one are read while it is written out: the database's per-guest work
  // (its address and NIC look-ups) then runs on as many of its connections at once.
  const ahead = Array.from({ length: READ_AHEAD }, (_, n) => readPage(n * pageSize));
  try {
    for (let start = READ_AHEAD * pageSize; ; start += pageSize) {
      const rows = await ahead.shift();
      if (!rows) return;
      ahead.push(readPage(start));
      yield rows.map((row) => {
        const addresses = exportAddresses(row, preference);
        return {
          hostName: suffixed.has(row.id) ? suffixedHostName(row.name, row.id) : row.name,
          globalId: vmGlobalId(row),
          row,
          connectionName: connectionNames.get(row.connectionId) ?? "",
          addresses,
          primaryAddress: addresses[0],
          macs: row.macs,
        };
      });
    }
  } finally {
    // A client that went away leaves reads in flight: their failures are nobody's to hear.
    for (const read of ahead) read.catch(() => {});
  }
}
