import type { Prisma } from "@hyperlens/db";
import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import {
  ClassifiedError,
  DEFAULT_ADDRESS_RULES,
  type ListRead,
  type SourceSnapshot,
  type SyncProgressEvent,
} from "@hyperlens/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createConnection, makeVm, minuteClock, okList, syncSnapshot } from "./testing/builders.ts";

let db: TestDatabase;
let connectionId: string;
const tick = minuteClock("2026-01-01T00:00:00Z");

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.close());
beforeEach(async () => {
  connectionId = await createConnection(db.prisma, `pve-${Math.random()}`);
});

const range = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => makeVm(from + i));
const sync = (snapshot: SourceSnapshot, extra = {}) =>
  syncSnapshot(db.prisma, connectionId, snapshot, { now: tick(), ...extra });
const failed = (key: string, reason = "HTTP 500"): ListRead => ({ key, status: "failed", reason });
const offline = (key: string): ListRead => ({
  key,
  status: "node_offline",
  reason: "node pve2 is offline",
});
const vmRows = () =>
  db.prisma.virtualMachine.findMany({ where: { connectionId }, orderBy: { externalId: "asc" } });
const vmRow = (externalId: string) =>
  db.prisma.virtualMachine.findUniqueOrThrow({
    where: { connectionId_externalId: { connectionId, externalId } },
    include: { nics: true, ips: true, disks: true, events: { orderBy: { at: "asc" } } },
  });

/** Row versions (xmin) of the connection's inventory: any write, even a no-op UPDATE, changes one. */
async function rowVersions(): Promise<string[]> {
  const rows = await db.prisma.$queryRawUnsafe<{ v: string }[]>(
    `WITH vm AS (SELECT id, xmin FROM virtual_machines WHERE "connectionId" = $1::uuid)
     SELECT 'vm ' || id || ' ' || xmin AS v FROM vm
     UNION ALL SELECT 'nic ' || id || ' ' || xmin FROM nics WHERE "vmId" IN (SELECT id FROM vm)
     UNION ALL SELECT 'ip ' || id || ' ' || xmin FROM ip_addresses WHERE "vmId" IN (SELECT id FROM vm)
     UNION ALL SELECT 'disk ' || id || ' ' || xmin FROM disks WHERE "vmId" IN (SELECT id FROM vm)
     UNION ALL SELECT 'event ' || id || ' ' || xmin FROM vm_events WHERE "vmId" IN (SELECT id FROM vm)
     ORDER BY 1`,
    connectionId,
  );
  return rows.map((r) => r.v);
}

describe("upserts come before removals", () => {
  it("a guest that moved node is updated on its new node, never removed, and gets a MOVED event", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    const moved = makeVm(100, { location: { nodeName: "pve2", clusterName: "lab" } });
    const result = await sync({
      lists: [okList("pve1/qemu", range(101, 2)), okList("pve2/qemu", [moved])],
    });
    const row = await vmRow("100");
    expect(row.removedAt).toBeNull();
    expect(row.listKey).toBe("pve2/qemu");
    expect(row.nodeName).toBe("pve2");
    expect(result.counts).toMatchObject({ removed: 0, changed: 1 });
    const event = row.events.find((e) => e.type === "MOVED");
    expect(event?.changes).toMatchObject({
      listKey: { from: "pve1/qemu", to: "pve2/qemu" },
      nodeName: { from: "pve1", to: "pve2" },
    });
  });
});

describe("reconciling list by list (issue 26)", () => {
  it("guests spread over chunks and lists are written once each, the first list a guest is in winning, with the counts of the whole run", async () => {
    // More than one write chunk (VM_CHUNK_SIZE, 250) in the first list; guest 300 also in the second.
    const first = okList("pve1/qemu", range(100, 600));
    const second = okList("pve2/qemu", [makeVm(300), ...range(1000, 5)]);
    const result = await sync({ lists: [first, second] });
    expect(result.counts).toMatchObject({ seen: 605, added: 605, unchanged: 0, removed: 0 });
    const rows = await vmRows();
    expect(rows).toHaveLength(605);
    expect(rows.find((r) => r.externalId === "300")?.listKey).toBe("pve1/qemu");
    const again = await sync({ lists: [first, second] });
    expect(again.counts).toMatchObject({ seen: 605, added: 0, unchanged: 605, rowsWritten: 0 });
  });

  it("a snapshot read twice (the same object) syncs alike: the engine empties only its own copy", async () => {
    const snapshot = { lists: [okList("pve1/qemu", range(100, 300))] };
    await sync(snapshot);
    const again = await sync(snapshot);
    expect(snapshot.lists[0]?.status === "ok" && snapshot.lists[0].vms).toHaveLength(300);
    expect(again.counts).toMatchObject({ seen: 300, unchanged: 300, removed: 0 });
    expect(again.guardFired).toBe(false);
  });

  it("a guest only reconfirmed counts as unchanged", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    await sync({ lists: [failed("pve1/qemu")] });
    const back = await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    expect(back.counts).toMatchObject({ seen: 3, changed: 0, unchanged: 3 });
    expect((await vmRows()).map((r) => r.confirmation)).toEqual(Array(3).fill("CONFIRMED"));
  });
});

describe("removal candidates and confirmation", () => {
  it("a node whose qemu list failed keeps its VMs, marked LIST_FAILED", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 2)), okList("pve2/qemu", range(200, 2))] });
    const result = await sync({
      lists: [okList("pve1/qemu", range(100, 2)), failed("pve2/qemu")],
    });
    const rows = await vmRows();
    expect(rows.filter((r) => r.removedAt)).toEqual([]);
    expect(rows.map((r) => [r.externalId, r.confirmation])).toEqual([
      ["100", "CONFIRMED"],
      ["101", "CONFIRMED"],
      ["200", "LIST_FAILED"],
      ["201", "LIST_FAILED"],
    ]);
    expect(result.outcome).toBe("PARTIAL");
  });

  it("guests on an offline node are kept, marked NODE_OFFLINE, and confirmed again when it returns", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 2)), okList("pve2/qemu", range(200, 2))] });
    await sync({ lists: [okList("pve1/qemu", range(100, 2)), offline("pve2/qemu")] });
    expect((await vmRow("200")).confirmation).toBe("NODE_OFFLINE");
    expect((await vmRow("200")).removedAt).toBeNull();
    const back = await sync({
      lists: [okList("pve1/qemu", range(100, 2)), okList("pve2/qemu", range(200, 2))],
    });
    expect((await vmRow("200")).confirmation).toBe("CONFIRMED");
    expect(back.outcome).toBe("SUCCESS");
  });

  it("guests of a list the source no longer reports are kept and marked NOT_CONFIRMED", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 2)), okList("pve9/lxc", range(900, 1))] });
    const result = await sync({ lists: [okList("pve1/qemu", range(100, 2))] });
    const row = await vmRow("900");
    expect(row.removedAt).toBeNull();
    expect(row.confirmation).toBe("NOT_CONFIRMED");
    expect(result.suppressed).toContainEqual({ kind: "unreported_list", key: "pve9/lxc", kept: 1 });
  });

  it("a guest missing from a list that came back is removed", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 4))] });
    const result = await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    expect((await vmRow("103")).removedAt).not.toBeNull();
    expect(result.counts.removed).toBe(1);
  });
});

describe("the guard", () => {
  it("removes nothing when fewer than half of the known guests in the lists that came back are present", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 40))] });
    const result = await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    const rows = await vmRows();
    expect(rows.filter((r) => r.removedAt)).toEqual([]);
    expect(rows.filter((r) => r.confirmation === "NOT_CONFIRMED")).toHaveLength(37);
    expect(result.guardFired).toBe(true);
    expect(result.outcome).toBe("PARTIAL");
    expect(result.message).toContain(
      "Removal suppressed: only 3 of 40 known guests in the lists that came back were present (fewer than half)",
    );
    const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: result.syncRunId } });
    expect(run.guardFired).toBe(true);
  });

  it("is computed over the lists that came back, not cluster-wide", async () => {
    await sync({
      lists: [okList("pve1/qemu", range(100, 40)), okList("pve2/qemu", range(200, 4))],
    });
    // Cluster-wide, 3 of 44 present would fire; within the list that came back 3 of 4 are.
    const result = await sync({ lists: [failed("pve1/qemu"), okList("pve2/qemu", range(200, 3))] });
    expect(result.guardFired).toBe(false);
    expect((await vmRow("203")).removedAt).not.toBeNull();
    expect((await vmRows()).filter((r) => r.removedAt)).toHaveLength(1);
  });
});

describe("tombstones", () => {
  it("a removed guest becomes a tombstone (when, by which sync, why) with a REMOVED event", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    const result = await sync({ lists: [okList("pve1/qemu", range(100, 2))] });
    const row = await vmRow("102");
    expect(row.removedAt).toBeInstanceOf(Date);
    expect(row.removedBySyncId).toBe(result.syncRunId);
    expect(row.removedReason).toBe("not in list pve1/qemu");
    expect(row.nics).toHaveLength(1);
    expect(row.events.map((e) => e.type)).toEqual(["APPEARED", "REMOVED"]);
  });

  it("a tombstoned guest that reappears is restored with a RESTORED event", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    await sync({ lists: [okList("pve1/qemu", range(100, 2))] });
    const result = await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    const row = await vmRow("102");
    expect(row.removedAt).toBeNull();
    expect(row.removedBySyncId).toBeNull();
    expect(row.removedReason).toBeNull();
    expect(row.events.map((e) => e.type)).toEqual(["APPEARED", "REMOVED", "RESTORED"]);
    expect(result.counts.restored).toBe(1);
  });
});

describe("unchanged guests cause no writes", () => {
  it("a second unchanged sync writes 0 inventory rows", async () => {
    const snapshot = { lists: [okList("pve1/qemu", range(100, 20))] };
    const first = await sync(snapshot);
    expect(first.counts.rowsWritten).toBeGreaterThan(0);
    const before = await rowVersions();
    const second = await sync(snapshot);
    expect(second.counts).toMatchObject({ rowsWritten: 0, unchanged: 20, added: 0, changed: 0 });
    expect(await rowVersions()).toEqual(before);
  });

  it("only the guest that changed is written", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 5))] });
    const before = new Map((await vmRows()).map((r) => [r.externalId, r.changedAt.getTime()]));
    const vms = range(100, 5).map((vm) => (vm.externalId === "102" ? { ...vm, cpuCount: 8 } : vm));
    const result = await sync({ lists: [okList("pve1/qemu", vms)] });
    expect(result.counts).toMatchObject({ changed: 1, unchanged: 4 });
    for (const row of await vmRows()) {
      const isSame = row.changedAt.getTime() === before.get(row.externalId);
      expect(isSame, row.externalId).toBe(row.externalId !== "102");
    }
  });
});

describe("children of a changed guest", () => {
  it("NICs, IPs and disks of a changed guest are replaced", async () => {
    await sync({ lists: [okList("pve1/qemu", [makeVm(100)])] });
    const changed = makeVm(100, {
      nics: [{ key: "net1", mac: "AA:BB:CC:00:00:01", network: "vmbr1" }],
      ips: [{ address: "192.168.1.5", origin: "STATIC_CONFIG", nicKey: "net1", isAccepted: true }],
      disks: [{ key: "virtio0", capacityBytes: 10 }],
    });
    await sync({ lists: [okList("pve1/qemu", [changed])] });
    const row = await vmRow("100");
    expect(row.nics.map((n) => [n.key, n.mac])).toEqual([["net1", "aa:bb:cc:00:00:01"]]);
    expect(row.ips.map((i) => i.address)).toEqual(["192.168.1.5"]);
    expect(row.disks.map((d) => [d.key, d.capacityBytes])).toEqual([["virtio0", 10n]]);
  });

  it("a silent agent keeps the last-known AGENT addresses with their old lastConfirmedAt", async () => {
    const first = await sync({ lists: [okList("pve1/qemu", [makeVm(100)])] });
    const firstAt = (await db.prisma.syncRun.findUniqueOrThrow({ where: { id: first.syncRunId } }))
      .startedAt;
    const silent = makeVm(100, { state: "STOPPED", ips: [], ipsFromGuestAreLive: false });
    await sync({ lists: [okList("pve1/qemu", [silent])] });
    const kept = await vmRow("100");
    expect(kept.ips.map((i) => [i.address, i.origin])).toEqual([["10.0.0.100", "AGENT"]]);
    expect(kept.ips[0]?.lastConfirmedAt).toEqual(firstAt);
    expect(kept.ips[0]?.isLastKnown).toBe(true);
    const changedEvent = kept.events.find((e) => e.type === "CHANGED");
    expect(changedEvent?.changes).not.toHaveProperty("ips");
    // The agent answers again: the live addresses replace the last-known ones.
    const live = makeVm(100, {
      ips: [{ address: "10.9.9.9", origin: "AGENT", interfaceName: "eth0", isAccepted: true }],
    });
    await sync({ lists: [okList("pve1/qemu", [live])] });
    expect((await vmRow("100")).ips.map((i) => [i.address, i.isLastKnown])).toEqual([
      ["10.9.9.9", false],
    ]);
  });

  it("rejected IPs are stored with isAccepted=false, their reason and their rule (docs/behaviour.md §10.9)", async () => {
    const guest = (address: string, interfaceName: string, mac: string) => ({
      address,
      origin: "AGENT" as const,
      reportedBy: "guest" as const,
      interfaceName,
      mac,
    });
    const vm = makeVm(100, {
      reportedAddresses: [
        guest("10.0.0.100", "eth0", "bc:24:11:00:00:64"),
        guest("172.17.0.1", "docker0", "02:42:ac:11:00:01"),
        guest("192.168.5.5", "eth9", "02:42:ac:11:00:02"),
      ],
    });
    await sync({ lists: [okList("pve1/qemu", [vm])] });
    const row = await vmRow("100");
    const byAddress = new Map(row.ips.map((ip) => [ip.address, ip]));
    expect(byAddress.get("10.0.0.100")).toMatchObject({ isAccepted: true, nicKey: "net0" });
    expect(byAddress.get("172.17.0.1")).toMatchObject({
      isAccepted: false,
      rejectRule: "IGNORED_INTERFACE",
      rejectReason: "docker0: interface name matches the ignored pattern docker*",
    });
    expect(byAddress.get("192.168.5.5")).toMatchObject({
      isAccepted: false,
      rejectRule: "UNMATCHED_MAC",
      rejectReason: "eth9: MAC 02:42:ac:11:00:02 is not a NIC of this VM",
    });
    expect(row.primaryAddress).toBe("10.0.0.100");
    expect(row.reportedAddresses).toHaveLength(3);
  });
});

describe("address rules (docs/behaviour.md §10.9)", () => {
  it("judges by the rules in force when the guests are written, not when the sync began", async () => {
    const vm = makeVm(100);
    // The rules change while the source is read: a sync judging by the rules it started with would
    // store what the new rules reject.
    await sync(
      { lists: [] },
      {
        read: async () => {
          await db.prisma.connection.update({
            where: { id: connectionId },
            data: {
              addressRules: {
                ...DEFAULT_ADDRESS_RULES,
                ignoredSubnets: ["10.0.0.0/24"],
              } as unknown as Prisma.InputJsonValue,
            },
          });
          return { lists: [okList("pve1/qemu", [vm])] };
        },
      },
    );
    const row = await vmRow("100");
    expect(row.ips).toEqual([
      expect.objectContaining({
        address: "10.0.0.100",
        isAccepted: false,
        rejectRule: "IGNORED_SUBNET",
      }),
    ]);
    expect(row.primaryAddress).toBeNull();
  });
});

describe("upgrading to kept reports (docs/behaviour.md §10.9)", () => {
  it("a guest stored before reports were kept keeps its agent addresses as last-known while the agent is silent", async () => {
    await sync({ lists: [okList("pve1/qemu", [makeVm(100)])] });
    // As an older version stored it: no report, and a fingerprint of the old mapping.
    await db.prisma.virtualMachine.updateMany({
      where: { connectionId },
      data: { reportedAddresses: [], fingerprint: "v1" },
    });
    const silent = makeVm(100, { ips: [], reportedAddresses: [], ipsFromGuestAreLive: false });
    await sync({ lists: [okList("pve1/qemu", [silent])] });
    const row = await vmRow("100");
    expect(row.ips).toEqual([
      expect.objectContaining({ address: "10.0.0.100", isAccepted: true, isLastKnown: true }),
    ]);
    expect(row.reportedAddresses).toEqual([
      expect.objectContaining({ address: "10.0.0.100", isLastKnown: true }),
    ]);
  });
});

describe("history", () => {
  it("a new guest gets APPEARED; a changed one CHANGED with each field's from and to", async () => {
    await sync({ lists: [okList("pve1/qemu", [makeVm(100)])] });
    const changed = makeVm(100, { state: "STOPPED", memoryBytes: 8 * 1024 ** 3, name: "db-1" });
    await sync({ lists: [okList("pve1/qemu", [changed])] });
    const row = await vmRow("100");
    expect(row.events.map((e) => e.type)).toEqual(["APPEARED", "CHANGED"]);
    expect(row.events[1]?.changes).toEqual({
      name: { from: "vm-100", to: "db-1" },
      state: { from: "RUNNING", to: "STOPPED" },
      memoryBytes: { from: 4 * 1024 ** 3, to: 8 * 1024 ** 3 },
    });
  });
});

describe("bounded transactions", () => {
  it("a crash mid-sync never leaves a half-written guest and removes nothing", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    // An out-of-range prefix length makes the address insert fail after the VM row was written.
    const broken = makeVm(500, {
      ips: [{ address: "10.5.5.5", prefixLength: 2 ** 40, origin: "AGENT", isAccepted: true }],
    });
    const result = await sync({ lists: [okList("pve1/qemu", [makeVm(100), broken])] });
    expect(result.outcome).toBe("FAILED");
    expect(result.errorClass).toBe("internal");
    const rows = await vmRows();
    expect(rows.map((r) => r.externalId)).toEqual(["100", "101", "102"]);
    expect(rows.filter((r) => r.removedAt)).toEqual([]);
  });
});

describe("dry run", () => {
  it("writes no inventory rows and returns what would be added, changed (with diffs) and removed", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    const before = await rowVersions();
    const connectionBefore = await db.prisma.connection.findUniqueOrThrow({
      where: { id: connectionId },
    });
    const vms = [makeVm(100), makeVm(101, { cpuCount: 4 }), makeVm(300)];
    const result = await sync({ lists: [okList("pve1/qemu", vms)] }, { dryRun: true });
    expect(await rowVersions()).toEqual(before);
    expect(await db.prisma.connection.findUniqueOrThrow({ where: { id: connectionId } })).toEqual(
      connectionBefore,
    );
    expect(result.counts).toMatchObject({ added: 1, changed: 1, removed: 1, rowsWritten: 0 });
    expect(result.preview?.added.map((e) => e.externalId)).toEqual(["300"]);
    expect(result.preview?.changed).toEqual([
      expect.objectContaining({ externalId: "101", changes: { cpuCount: { from: 2, to: 4 } } }),
    ]);
    expect(result.preview?.removed).toEqual([
      expect.objectContaining({ externalId: "102", reason: "not in list pve1/qemu" }),
    ]);
    const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: result.syncRunId } });
    expect(run.isDryRun).toBe(true);
    expect(run.preview).toEqual(JSON.parse(JSON.stringify(result.preview)));
  });
});

describe("the run's suppressed list", () => {
  it("names each failed or offline list with its reason and the removals the guard held back", async () => {
    await sync({
      lists: [
        okList("pve1/qemu", range(100, 10)),
        okList("pve2/qemu", range(200, 1)),
        okList("pve3/lxc", range(300, 1)),
      ],
    });
    const result = await sync({
      lists: [
        okList("pve1/qemu", range(100, 2)),
        offline("pve2/qemu"),
        failed("pve3/lxc", "HTTP 596"),
      ],
    });
    const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: result.syncRunId } });
    expect(run.suppressed).toEqual([
      { kind: "list", key: "pve2/qemu", status: "node_offline", reason: "node pve2 is offline" },
      { kind: "list", key: "pve3/lxc", status: "failed", reason: "HTTP 596" },
      expect.objectContaining({
        kind: "guard",
        subject: "guests",
        known: 10,
        present: 2,
        total: 8,
      }),
    ]);
    const guard = (run.suppressed as { kind: string; items?: { name: string }[] }[])[2];
    expect(guard?.items?.map((i) => i.name)).toContain("vm-109");
  });
});

describe("idempotence", () => {
  it("the same snapshot twice gives the same database", async () => {
    const snapshot = {
      lists: [okList("pve1/qemu", range(100, 5)), failed("pve2/qemu")],
      nodes: [{ externalId: "pve1", name: "pve1", isOnline: true, details: {} }],
    };
    await sync(snapshot);
    const dump = async () =>
      JSON.stringify(
        await db.prisma.virtualMachine.findMany({
          where: { connectionId },
          include: { nics: true, ips: true, disks: true, events: true },
          orderBy: { externalId: "asc" },
        }),
        (_, v) => (typeof v === "bigint" ? v.toString() : v),
      );
    const first = await dump();
    const second = await sync(snapshot);
    expect(second.counts.rowsWritten).toBe(0);
    expect(await dump()).toBe(first);
  });
});

describe("recording the outcome", () => {
  it("a read that throws fails the run with its error class and touches no inventory", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    const before = await rowVersions();
    const unreachable = new ClassifiedError("Could not reach the Proxmox server", "unreachable");
    const read = async (): Promise<SourceSnapshot> => {
      throw unreachable;
    };
    const result = await sync({ lists: [] }, { read });
    const again = await sync({ lists: [] }, { read });
    expect(result).toMatchObject({ outcome: "FAILED", errorClass: "unreachable" });
    expect(await rowVersions()).toEqual(before);
    const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: again.syncRunId } });
    expect(run).toMatchObject({
      outcome: "FAILED",
      errorClass: "unreachable",
      message: "Could not reach the Proxmox server",
    });
    const connection = await db.prisma.connection.findUniqueOrThrow({
      where: { id: connectionId },
    });
    expect(connection).toMatchObject({
      lastSyncOutcome: "FAILED",
      consecutiveFailures: 2,
      lastErrorClass: "unreachable",
    });
    await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    const healed = await db.prisma.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(healed).toMatchObject({
      lastSyncOutcome: "SUCCESS",
      consecutiveFailures: 0,
      lastErrorClass: null,
    });
    expect(healed.lastSuccessAt).toBeInstanceOf(Date);
  });

  it("emits progress events in order: started, phases, lists, counts, finished", async () => {
    const events: SyncProgressEvent[] = [];
    await sync(
      { lists: [okList("pve1/qemu", range(100, 2)), offline("pve2/qemu")] },
      { emit: (e: SyncProgressEvent) => events.push(e) },
    );
    expect(events.map((e) => (e.type === "phase" ? `phase:${e.phase}` : e.type))).toEqual([
      "started",
      "phase:reading",
      "list",
      "list",
      "phase:reconciling",
      "counts",
      "phase:recording",
      "counts",
      "finished",
    ]);
    expect(events[3]).toEqual({
      type: "list",
      key: "pve2/qemu",
      status: "skipped",
      reason: "node pve2 is offline",
    });
    expect(JSON.parse(JSON.stringify(events))).toEqual(events);
  });
});

describe("nodes and edge gateways", () => {
  const gateway = (id: string) => ({
    externalId: id,
    name: `edge-${id}`,
    ownerType: "VDC_GROUP" as const,
    details: {},
  });
  const gateways = (ids: string[], isComplete = true) => ({
    lists: [] as ListRead[],
    edgeGateways: {
      isComplete,
      items: ids.map(gateway),
      reason: isComplete ? undefined : "page 2 failed",
    },
  });
  const live = async () =>
    (
      await db.prisma.edgeGateway.findMany({
        where: { connectionId, removedAt: null },
        orderBy: { externalId: "asc" },
      })
    ).map((g) => g.externalId);

  it("edge gateways are removed only after a complete read", async () => {
    await sync(gateways(["a", "b", "c"]));
    const partial = await sync(gateways(["a", "b"], false));
    expect(await live()).toEqual(["a", "b", "c"]);
    expect(partial.suppressed).toContainEqual({ kind: "edge_gateways", reason: "page 2 failed" });
    await sync(gateways(["a", "b"]));
    expect(await live()).toEqual(["a", "b"]);
  });

  it("edge gateway removal is guarded", async () => {
    await sync(gateways(["a", "b", "c", "d"]));
    const result = await sync(gateways(["a"]));
    expect(await live()).toEqual(["a", "b", "c", "d"]);
    expect(result.guardFired).toBe(true);
  });

  it("nodes are upserted, and an unchanged node writes nothing", async () => {
    const node = {
      externalId: "pve1",
      name: "pve1",
      clusterName: "lab",
      isOnline: true,
      memoryBytes: 2 ** 36,
      details: {},
    };
    expect((await sync({ lists: [], nodes: [node] })).counts.rowsWritten).toBe(1);
    expect((await sync({ lists: [], nodes: [node] })).counts.rowsWritten).toBe(0);
    await sync({ lists: [], nodes: [{ ...node, isOnline: false }] });
    const row = await db.prisma.hypervisorNode.findFirstOrThrow({ where: { connectionId } });
    expect(row).toMatchObject({ isOnline: false, memoryBytes: 2n ** 36n });
  });
});

describe("stopping a sync", () => {
  it("a sync stopped during its read is CANCELLED, removes nothing and leaves the connection's health alone", async () => {
    await sync({ lists: [okList("pve1/qemu", range(100, 3))] });
    const before = await rowVersions();
    const healthBefore = await db.prisma.connection.findUniqueOrThrow({
      where: { id: connectionId },
    });
    const controller = new AbortController();
    // The read returns an empty (cut short) list after the stop: it must not be reconciled.
    const read = async (): Promise<SourceSnapshot> => {
      controller.abort(new Error("The server is shutting down."));
      return { lists: [okList("pve1/qemu", [])] };
    };
    const result = await sync({ lists: [] }, { read, signal: controller.signal });
    expect(result).toMatchObject({ outcome: "CANCELLED", errorClass: "cancelled" });
    expect(result.message).toContain("The server is shutting down.");
    expect(await rowVersions()).toEqual(before);
    const run = await db.prisma.syncRun.findUniqueOrThrow({ where: { id: result.syncRunId } });
    expect(run.outcome).toBe("CANCELLED");
    expect(run.finishedAt).toBeInstanceOf(Date);
    const health = await db.prisma.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(health).toMatchObject({
      lastSyncAt: healthBefore.lastSyncAt,
      lastSyncOutcome: "SUCCESS",
      consecutiveFailures: 0,
    });
  });

  it("a read that throws because of the stop is CANCELLED, not FAILED", async () => {
    const controller = new AbortController();
    const read = async (_emit: unknown, signal?: AbortSignal): Promise<SourceSnapshot> => {
      controller.abort();
      signal?.throwIfAborted();
      return { lists: [] };
    };
    const result = await sync({ lists: [] }, { read, signal: controller.signal });
    expect(result.outcome).toBe("CANCELLED");
  });
});
