import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Prisma } from "./generated/prisma/client.ts";
import { rowsByIdReader, TABLES } from "./rows-by-id.ts";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.ts";

let db: TestDatabase;
const statements: string[] = [];
let ids: string[] = [];
const MISSING = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  db = await createTestDatabase({ onQuery: (sql) => statements.push(sql) });
  const connection = await db.prisma.connection.create({
    data: {
      kind: "PROXMOX",
      name: "lab",
      baseUrl: "https://pve.example:8006",
      username: "root@pam",
      lastSuccessAt: new Date("2026-12-01T10:00:00.123Z"),
      settings: { pageSize: 25, nested: { list: [1, "two", null] } },
    },
  });
  const created = [];
  for (let i = 0; i < 6; i++) {
    created.push(
      await db.prisma.virtualMachine.create({
        data: {
          connectionId: connection.id,
          source: "PROXMOX",
          externalId: String(100 + i),
          name: `Guest "${i}" ünïcode 🚀`,
          nameSort: `guest-${i}`,
          kind: i % 2 ? "CONTAINER" : "VM",
          state: i % 3 ? "RUNNING" : "STOPPED",
          cpuCount: i === 0 ? null : i,
          // Past 2^53: a JSON number would round it.
          memoryBytes: i === 0 ? null : 2n ** 62n + BigInt(i),
          diskTotalBytes: BigInt(i) * 1024n ** 3n,
          tags: i % 2 ? ["prod", 'quote"d', "back\\slash"] : [],
          nodeName: i === 5 ? null : `pve${i}`,
          details: { common: { os: "linux" }, raw: { [`k${i}`]: [i, true, null] } },
          lastSeenAt: new Date(Date.UTC(2026, 11, 1, 12, 0, 0, i)),
          removedAt: i === 4 ? new Date("2026-12-02T00:00:00.999Z") : null,
          removedReason: i === 4 ? "gone" : null,
          nics: {
            create: Array.from({ length: i % 3 }, (_, n) => ({
              key: `net${2 - n}`,
              mac: n ? null : `bc:24:11:00:00:0${i}`,
              vlan: n ? 10 : null,
              isConnected: n ? false : null,
            })),
          },
          ips: {
            create: [
              { address: `10.0.0.${i}`, origin: "AGENT", nicKey: "net0", prefixLength: 24 },
              { address: `10.0.0.${100 - i}`, origin: "DHCP", interfaceName: "eth1" },
              { address: "172.17.0.1", origin: "AGENT", isAccepted: false, rejectReason: "docker" },
            ],
          },
          disks: {
            create: [
              { key: "scsi1", capacityBytes: i ? 2n ** 60n : null, storage: "local-lvm" },
              { key: "scsi0", capacityBytes: 32n * 1024n ** 3n },
            ],
          },
          events: {
            create: [0, 1, 2].map((n) => ({
              type: n ? "CHANGED" : "APPEARED",
              at: new Date(Date.UTC(2026, 10, 1 + n)),
              changes: n ? { name: { from: `old${n}`, to: `new${n}` } } : {},
            })),
          },
        },
      }),
    );
  }
  ids = [...created.map((vm) => vm.id)].reverse();
});
afterAll(async () => db?.close());

/** What Prisma returns for the same ids and selection, in the order of `wanted`. */
async function byPrisma(selection: Record<string, unknown>, wanted: string[]) {
  const rows = (await db.prisma.virtualMachine.findMany({
    ...(selection as Prisma.VirtualMachineFindManyArgs),
    where: { id: { in: wanted } },
  })) as Record<string, unknown>[];
  // A selection without the id cannot be matched up; compare those rows by the order of ids.
  const all = await db.prisma.virtualMachine.findMany({
    where: { id: { in: wanted } },
    select: { id: true },
  });
  const position = new Map(all.map((row, i) => [row.id, i]));
  return wanted.flatMap((id) => {
    const at = position.get(id);
    return at === undefined ? [] : [rows[at]];
  });
}

const SELECTIONS: [string, Record<string, unknown>][] = [
  ["every scalar (no select)", {}],
  [
    "the Servers page",
    {
      select: {
        connection: true,
        ips: {
          where: { isAccepted: true },
          orderBy: [{ isAccepted: "desc" }, { address: "asc" }],
        },
        id: true,
        source: true,
        name: true,
        kind: true,
        memoryBytes: true,
        diskTotalBytes: true,
        lastSeenAt: true,
        removedAt: true,
        nodeName: true,
        tags: true,
        details: true,
      },
    },
  ],
  [
    "every relation, nested selections, a limit",
    {
      select: {
        id: true,
        nics: { orderBy: { key: "asc" } },
        ips: { where: {}, orderBy: [{ isAccepted: "desc" }, { address: "asc" }] },
        disks: { orderBy: { key: "asc" }, select: { key: true, capacityBytes: true } },
        connection: { select: { lastSuccessAt: true, settings: true } },
        events: { orderBy: { at: "desc" }, take: 2 },
      },
    },
  ],
  [
    "include",
    {
      include: {
        nics: { orderBy: { key: "desc" } },
        ips: { where: { isAccepted: false, rejectReason: "docker" } },
        connection: false,
      },
    },
  ],
  ["a relation filtered on null", { select: { id: true, nics: { where: { mac: null } } } }],
];

describe("rows by id", () => {
  it.each(SELECTIONS)("reads %s as Prisma does, in the order of the ids", async (_, selection) => {
    const wanted = [ids[2], MISSING, ...ids.slice(0, 2), ...ids.slice(3)] as string[];
    const reader = rowsByIdReader("VirtualMachine", selection);
    expect(reader).toBeDefined();
    expect(await reader?.read(db.prisma, wanted)).toEqual(await byPrisma(selection, wanted));
  });

  it("keeps the order of the ids whatever join the database picks", async () => {
    const connection = await db.prisma.connection.create({
      data: { kind: "VCENTER", name: "many", baseUrl: "https://vc.example", username: "u" },
    });
    await db.prisma.virtualMachine.createMany({
      data: Array.from({ length: 500 }, (_, i) => ({
        connectionId: connection.id,
        source: "VCENTER" as const,
        externalId: `vm-${i}`,
        name: `vm-${i}`,
      })),
    });
    const all = await db.prisma.virtualMachine.findMany({ select: { id: true } });
    // Reverse, then interleave, so no table or index order matches.
    const reversed = all.map((row) => row.id).reverse();
    const wanted = [...reversed.filter((_, i) => i % 2), ...reversed.filter((_, i) => !(i % 2))];
    // With neither nested loops nor hashing the join comes back in the table's order or the key's (PGlite is one
    // session, so the setting reaches the reader's statement).
    const session =
      db.kind === "pglite"
        ? [
            "SET enable_nestloop = off; SET enable_hashjoin = off",
            "RESET enable_nestloop; RESET enable_hashjoin",
          ]
        : [];
    if (session[0]) await db.withExecutor((e) => e.exec(session[0] as string));
    try {
      const rows = await rowsByIdReader("VirtualMachine", { select: { id: true } })?.read<{
        id: string;
      }>(db.prisma, wanted);
      expect(rows?.map((row) => row.id)).toEqual(wanted);
    } finally {
      if (session[1]) await db.withExecutor((e) => e.exec(session[1] as string));
    }
    await db.prisma.virtualMachine.deleteMany({ where: { connectionId: connection.id } });
  });

  it("reads a page and all its relations in one statement", async () => {
    const reader = rowsByIdReader("VirtualMachine", SELECTIONS[2]?.[1] ?? {});
    statements.length = 0;
    const rows = await reader?.read<{ nics: unknown[] }>(db.prisma, ids);
    expect(rows?.map((row) => row.nics.length)).toEqual([2, 1, 0, 2, 1, 0]);
    expect(statements).toHaveLength(1);
  });

  it("reads nothing for no ids", async () => {
    statements.length = 0;
    expect(await rowsByIdReader("VirtualMachine", {})?.read(db.prisma, [])).toEqual([]);
    expect(statements).toHaveLength(0);
  });

  it.each([
    [
      "a filter other than equality",
      { select: { ips: { where: { address: { contains: "10" } } } } },
    ],
    ["a relation count", { select: { id: true, _count: true } }],
    [
      "ordering with nulls placement",
      { select: { nics: { orderBy: { vlan: { sort: "asc", nulls: "first" } } } } },
    ],
    ["skipping rows of a relation", { select: { events: { skip: 1 } } }],
    ["omit", { omit: { details: true } }],
    ["distinct", { distinct: ["name"] }],
    ["a field the model lacks", { select: { nope: true } }],
    ["both select and include", { select: { id: true }, include: { nics: true } }],
  ])("declines %s, so the caller asks Prisma", (_, selection) => {
    expect(rowsByIdReader("VirtualMachine", selection)).toBeUndefined();
  });

  it("names each model's table as the schema maps it", async () => {
    const tables = await db.withExecutor((e) =>
      e.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
      ),
    );
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(Object.values(TABLES)));
  });
});
