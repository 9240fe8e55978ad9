// The light poll's schedule (docs/behaviour.md §8.7) with a fake clock: polls between full syncs,
// never beside a sync of the same connection (the lease), and one replica only.
import {
  createProxmoxStandin,
  generateCluster,
  type ProxmoxStandin,
  qemuGuest,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppServices } from "../context.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { createTestServices } from "../testing/test-app.ts";
import { createSyncCoordinator } from "./coordinator.ts";
import { acquireLease, releaseLease } from "./lease.ts";
import { createScheduler, type Scheduler } from "./scheduler.ts";

let standin: ProxmoxStandin;
let services: AppServices;
let close: () => Promise<void>;
let clock: number;
const START = Date.parse("2026-03-01T12:00:00Z");

beforeAll(async () => {
  standin = await createProxmoxStandin({ cluster: generateCluster({ nodes: 2, guests: 6 }) });
  const made = await createTestServices();
  services = made.services;
  close = () => made.db.close();
});
afterAll(async () => {
  await standin?.close();
  await close?.();
});

/** A replica: its own coordinator and scheduler over the shared database and clock. */
function replica(refreshMs = 15_000): { services: AppServices; scheduler: Scheduler } {
  const own = { ...services, syncs: createSyncCoordinator({ now: () => new Date(clock) }) };
  return {
    services: own,
    scheduler: createScheduler(own, { useTimer: false, refreshMs, random: () => 0 }),
  };
}

async function at(offsetMs: number, scheduler: Scheduler) {
  clock = START + offsetMs;
  await scheduler.tick();
  await scheduler.idle();
}

const listCalls = () =>
  standin.requests.filter((r) => r.path === "/api2/json/cluster/resources").length;
const runsOf = (connectionId: string, trigger: "SCHEDULE" | "POLL") =>
  services.prisma.syncRun.count({ where: { connectionId, trigger } });

let id: string;
let counter = 0;
beforeEach(async () => {
  await services.prisma.connection.updateMany({ data: { isActive: false } });
  counter += 1;
  id = (
    await saveStandinConnection(services, "PROXMOX", standin, `polled-${counter}`, {
      syncIntervalSeconds: 600,
    })
  ).id;
});

describe("the light poll's schedule", () => {
  it("polls every 15 s between full syncs, and a new guest appears after one poll", async () => {
    const { scheduler } = replica();
    await at(0, scheduler);
    expect(await runsOf(id, "SCHEDULE")).toBe(1);
    standin.requests.length = 0;
    await at(10_000, scheduler);
    expect(listCalls()).toBe(0);
    standin.cluster.addGuest(qemuGuest({ vmid: 900 + counter, name: "new", node: "pve1" }));
    await at(15_000, scheduler);
    expect(listCalls()).toBe(1);
    const stored = await services.prisma.virtualMachine.findFirst({
      where: { connectionId: id, externalId: String(900 + counter) },
    });
    expect(stored?.name).toBe("new");
    expect(await runsOf(id, "POLL")).toBe(1);
    // Unchanged polls: one request each, no run.
    await at(30_000, scheduler);
    await at(45_000, scheduler);
    expect(listCalls()).toBe(3);
    expect(await runsOf(id, "POLL")).toBe(1);
    // The full sync still runs on its interval, and is not replaced by a poll.
    await at(600_000, scheduler);
    expect(await runsOf(id, "SCHEDULE")).toBe(2);
    await scheduler.stop();
  });

  it("is off at 0 s", async () => {
    await services.prisma.connection.update({
      where: { id },
      data: { settings: { lightPollSeconds: 0 } },
    });
    const { scheduler } = replica();
    await at(0, scheduler);
    standin.requests.length = 0;
    await at(60_000, scheduler);
    expect(listCalls()).toBe(0);
    await scheduler.stop();
  });

  it("never polls while the connection's lease is held (a sync runs)", async () => {
    const { scheduler } = replica();
    await at(0, scheduler);
    standin.requests.length = 0;
    expect(await acquireLease(services.prisma, id, "a-sync-elsewhere", 60_000)).toBe(true);
    await at(16_000, scheduler);
    expect(listCalls()).toBe(0);
    await releaseLease(services.prisma, id, "a-sync-elsewhere");
    await at(32_000, scheduler);
    expect(listCalls()).toBe(1);
    await scheduler.stop();
  });

  it("across replicas, only one polls: the other judges the shared last poll under the lease", async () => {
    const a = replica();
    const b = replica(60 * 60_000);
    await at(0, a.scheduler);
    // B reads the connections now and not again: its view of the last poll stays stale.
    await at(1_000, b.scheduler);
    standin.requests.length = 0;
    await at(16_000, a.scheduler);
    expect(listCalls()).toBe(1);
    await at(16_500, b.scheduler);
    expect(listCalls()).toBe(1);
    await a.scheduler.stop();
    await b.scheduler.stop();
  });
});
