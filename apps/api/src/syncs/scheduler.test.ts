// The scheduler on the embedded database with a fake clock: each connection on its own interval,
// changes picked up without a restart.
import {
  createProxmoxStandin,
  generateCluster,
  type ProxmoxStandin,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppServices } from "../context.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { createTestServices } from "../testing/test-app.ts";
import { createSyncCoordinator } from "./coordinator.ts";
import { createScheduler, type Scheduler } from "./scheduler.ts";

let standin: ProxmoxStandin;
let services: AppServices;
let close: () => Promise<void>;
let clock: number;
let scheduler: Scheduler;

const MINUTE = 60_000;

beforeAll(async () => {
  standin = await createProxmoxStandin({ cluster: generateCluster({ nodes: 1, guests: 3 }) });
  const made = await createTestServices();
  services = made.services;
  close = () => made.db.close();
});
afterAll(async () => {
  await standin?.close();
  await close?.();
});

beforeEach(async () => {
  // Connections of earlier tests stay out of the way.
  await services.prisma.connection.updateMany({ data: { isActive: false } });
  clock = Date.parse("2026-03-01T12:00:00Z");
  services.syncs = createSyncCoordinator({ now: () => new Date(clock) });
  scheduler = createScheduler(services, { useTimer: false, refreshMs: 15_000, random: () => 0 });
});

async function addConnection(name: string, syncIntervalSeconds: number) {
  const saved = await saveStandinConnection(services, "PROXMOX", standin, name, {
    syncIntervalSeconds,
  });
  return saved.id;
}

/** Moves the fake clock and lets the scheduler act, waiting for the syncs it started. */
async function at(offsetMs: number) {
  clock = Date.parse("2026-03-01T12:00:00Z") + offsetMs;
  await scheduler.tick();
  await scheduler.idle();
}

const runs = (connectionId: string) =>
  services.prisma.syncRun.count({ where: { connectionId, trigger: "SCHEDULE" } });

describe("the scheduler", () => {
  it("syncs each active connection on its own interval", async () => {
    const every1 = await addConnection("every-minute", 60);
    const every3 = await addConnection("every-3-minutes", 180);
    await at(0);
    expect([await runs(every1), await runs(every3)]).toEqual([1, 1]);
    await at(30_000);
    expect([await runs(every1), await runs(every3)]).toEqual([1, 1]);
    await at(MINUTE + 1_000);
    expect([await runs(every1), await runs(every3)]).toEqual([2, 1]);
    await at(2 * MINUTE + 2_000);
    expect([await runs(every1), await runs(every3)]).toEqual([3, 1]);
    await at(3 * MINUTE + 3_000);
    expect([await runs(every1), await runs(every3)]).toEqual([4, 2]);
  });

  it("delays each sync by its jitter, so connections do not all start together", async () => {
    let draw = 0.5;
    scheduler = createScheduler(services, {
      useTimer: false,
      maxJitterMs: 30_000,
      random: () => draw,
    });
    const id = await addConnection("jittered", 600);
    draw = 0.5;
    await at(0);
    // Never synced: due when first seen plus its jitter (half of min(30 s, a tenth of 600 s)).
    expect(await runs(id)).toBe(0);
    await at(15_000);
    expect(await runs(id)).toBe(1);
  });

  it("picks up a new connection, a changed interval and a deactivation without a restart", async () => {
    const first = await addConnection("first", 600);
    await at(0);
    expect(await runs(first)).toBe(1);

    const added = await addConnection("added-later", 600);
    await at(5_000);
    expect(await runs(added)).toBe(0); // not re-read yet
    await at(16_000);
    expect(await runs(added)).toBe(1);

    await services.prisma.connection.update({
      where: { id: first },
      data: { syncIntervalSeconds: 60 },
    });
    await at(2 * MINUTE);
    expect(await runs(first)).toBe(2);

    await services.prisma.connection.update({ where: { id: first }, data: { isActive: false } });
    await at(20 * MINUTE);
    expect(await runs(first)).toBe(2);
    expect(await runs(added)).toBe(2);
  });

  it("does not sync a connection its stale view thinks due when it was synced meanwhile", async () => {
    const id = await addConnection("synced-elsewhere", 600);
    await at(0);
    expect(await runs(id)).toBe(1);
    // Another replica (here: a row update) syncs it later; our view still has the old time.
    await services.prisma.connection.update({
      where: { id },
      data: { lastSyncAt: new Date(clock + 10 * MINUTE) },
    });
    await at(10 * MINUTE + 1_000);
    expect(await runs(id)).toBe(1);
  });
});
