import type { InventoryEvent } from "@hyperlens/db";
import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import {
  ClassifiedError,
  type NeutralIp,
  type NeutralVm,
  type SourceSnapshot,
} from "@hyperlens/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createConnection, makeVm, minuteClock, okList, syncSnapshot } from "./testing/builders.ts";

let db: TestDatabase;
let connectionId: string;
const tick = minuteClock("2026-03-01T00:00:00Z");

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.close());
beforeEach(async () => {
  connectionId = await createConnection(db.prisma, `pve-${Math.random()}`);
});

let advanced = 0;
const sync = (snapshot: SourceSnapshot, extra = {}) =>
  syncSnapshot(db.prisma, connectionId, snapshot, {
    now: tick(),
    onFeedAdvanced: () => {
      advanced += 1;
    },
    ...extra,
  });
const guests = (...vms: NeutralVm[]): SourceSnapshot => ({ lists: [okList("pve1/qemu", vms)] });

/** The connection's events written after `after`, oldest first. */
async function eventsAfter(after = 0n): Promise<InventoryEvent[]> {
  return db.prisma.inventoryEvent.findMany({
    where: { connectionId, sequence: { gt: after } },
    orderBy: { sequence: "asc" },
  });
}
const lastSequence = async () => (await eventsAfter()).at(-1)?.sequence ?? 0n;
const brief = (events: InventoryEvent[]) => events.map((e) => `${e.type} ${e.subjectName ?? ""}`);

describe("guest events (docs/behaviour.md §14.2)", () => {
  it("a new, changed, removed and reappearing guest each get their event, in the sync's run", async () => {
    const first = await sync(guests(makeVm(100), makeVm(101), makeVm(102)));
    const added = await eventsAfter();
    expect(brief(added.filter((e) => e.type === "VM_ADDED"))).toEqual([
      "VM_ADDED vm-100",
      "VM_ADDED vm-101",
      "VM_ADDED vm-102",
    ]);
    const vm100 = await db.prisma.virtualMachine.findFirstOrThrow({
      where: { connectionId, externalId: "100" },
    });
    expect(added[0]).toMatchObject({
      subjectId: vm100.id,
      syncRunId: first.syncRunId,
      data: { externalId: "100", listKey: "pve1/qemu" },
    });

    let seen = await lastSequence();
    await sync(guests(makeVm(100, { cpuCount: 4 }), makeVm(101), makeVm(102)));
    const changed = await eventsAfter(seen);
    expect(brief(changed)).toEqual(["VM_CHANGED vm-100"]);
    expect(changed[0]?.data).toEqual({
      externalId: "100",
      changes: { cpuCount: { from: 2, to: 4 } },
    });

    seen = await lastSequence();
    await sync(guests(makeVm(100, { cpuCount: 4 }), makeVm(101)));
    const removed = await eventsAfter(seen);
    expect(brief(removed)).toEqual(["VM_REMOVED vm-102"]);
    expect(removed[0]?.data).toEqual({ externalId: "102", reason: "not in list pve1/qemu" });

    seen = await lastSequence();
    await sync(guests(makeVm(100, { cpuCount: 4 }), makeVm(101), makeVm(102)));
    expect(brief(await eventsAfter(seen))).toEqual(["VM_RESTORED vm-102"]);
  });
});

describe("address events (docs/behaviour.md §14.3)", () => {
  it("an accepted address that comes or goes is IP_ADDED or IP_REMOVED with its interface", async () => {
    await sync(guests(makeVm(100)));
    const first = await eventsAfter();
    expect(first.find((e) => e.type === "IP_ADDED")).toMatchObject({
      subjectName: "vm-100",
      data: { address: "10.0.0.100", interfaceName: "eth0", prefixLength: 24, origin: "AGENT" },
    });

    const seen = await lastSequence();
    const [ip] = makeVm(100).ips ?? [];
    const moved = { ...ip, address: "10.0.0.200" } as NeutralIp;
    const rejected = {
      ...moved,
      address: "172.17.0.1",
      interfaceName: "docker0",
      isAccepted: false,
    };
    await sync(guests(makeVm(100, { ips: [moved, rejected] })));
    const events = (await eventsAfter(seen)).filter((e) => e.type.startsWith("IP_"));
    expect(events.map((e) => [e.type, (e.data as { address: string }).address])).toEqual([
      ["IP_ADDED", "10.0.0.200"],
      ["IP_REMOVED", "10.0.0.100"],
    ]);
  });

  it("a silent agent's last-known addresses are not reported as removed", async () => {
    await sync(guests(makeVm(100)));
    const seen = await lastSequence();
    await sync(guests(makeVm(100, { state: "STOPPED", ips: [], ipsFromGuestAreLive: false })));
    expect(brief(await eventsAfter(seen))).toEqual(["VM_CHANGED vm-100"]);
  });
});

describe("what writes no events (docs/behaviour.md §14.4)", () => {
  it("an unchanged re-sync and a preview append nothing and wake no subscriber", async () => {
    await sync(guests(makeVm(100), makeVm(101)));
    const seen = await lastSequence();
    const before = advanced;
    await sync(guests(makeVm(100), makeVm(101)));
    await sync(guests(makeVm(100, { cpuCount: 8 })), { dryRun: true });
    expect(await eventsAfter(seen)).toEqual([]);
    expect(advanced).toBe(before);
  });
});

describe("edge gateway and run events (docs/behaviour.md §14.5)", () => {
  const gateways = (ids: string[]): SourceSnapshot => ({
    lists: [],
    edgeGateways: {
      isComplete: true,
      items: ids.map((id) => ({
        externalId: id,
        name: `edge-${id}`,
        ownerType: "VDC_GROUP" as const,
        details: {},
      })),
    },
  });

  it("gateways that appear or go are EDGE_GATEWAY_ADDED / EDGE_GATEWAY_REMOVED", async () => {
    await sync(gateways(["a", "b"]));
    const stored = await db.prisma.edgeGateway.findMany({
      where: { connectionId },
      orderBy: { externalId: "asc" },
    });
    const added = await eventsAfter();
    expect(added.map((e) => [e.type, e.subjectId, e.subjectName])).toEqual([
      ["EDGE_GATEWAY_ADDED", stored[0]?.id, "edge-a"],
      ["EDGE_GATEWAY_ADDED", stored[1]?.id, "edge-b"],
    ]);
    const seen = await lastSequence();
    await sync(gateways(["a"]));
    expect(brief(await eventsAfter(seen))).toEqual(["EDGE_GATEWAY_REMOVED edge-b"]);
  });

  it("a guard that held removals back is GUARD_FIRED, and the run SYNC_PARTIAL", async () => {
    await sync(guests(makeVm(100), makeVm(101), makeVm(102), makeVm(103)));
    const seen = await lastSequence();
    const run = await sync(guests(makeVm(100)));
    const events = await eventsAfter(seen);
    expect(events.map((e) => e.type)).toEqual(["GUARD_FIRED", "SYNC_PARTIAL"]);
    expect(events[0]).toMatchObject({
      syncRunId: run.syncRunId,
      subjectId: null,
      data: { subject: "guests", known: 4, present: 1, heldBack: 3 },
    });
    expect(events[1]?.data).toMatchObject({ reasons: ["guard"] });
  });

  it("a failed sync is SYNC_FAILED with its error class", async () => {
    const run = await sync(guests(), {
      read: async () => {
        throw new ClassifiedError("Could not reach the Proxmox server", "unreachable");
      },
    });
    expect(await eventsAfter()).toMatchObject([
      {
        type: "SYNC_FAILED",
        syncRunId: run.syncRunId,
        data: { errorClass: "unreachable", message: "Could not reach the Proxmox server" },
      },
    ]);
  });
});
