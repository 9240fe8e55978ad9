// The sync lease between replicas, on whichever database the run uses (PGlite or PostgreSQL): two
// app instances on one database stand in for two replicas.
import {
  createProxmoxStandin,
  generateCluster,
  type ProxmoxStandin,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "../context.ts";
import { createMetrics } from "../metrics/metrics.ts";
import { startSleeper } from "../testing/sleeper-process.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { createTestServices } from "../testing/test-app.ts";
import { startAbandonedRunSweep } from "./abandoned-run-sweep.ts";
import { createSyncCoordinator, syncConnection } from "./coordinator.ts";
import {
  acquireLease,
  currentLease,
  recoverInterruptedSyncs,
  releaseLease,
  renewLease,
} from "./lease.ts";

let standin: ProxmoxStandin;
let replicaA: AppServices;
let replicaB: AppServices;
let close: () => Promise<void>;

beforeAll(async () => {
  standin = await createProxmoxStandin({ cluster: generateCluster({ nodes: 2, guests: 20 }) });
  const made = await createTestServices();
  replicaA = {
    ...made.services,
    syncs: createSyncCoordinator({ leaseTtlMs: 900, joinPollMs: 50 }),
  };
  replicaB = {
    ...made.services,
    syncs: createSyncCoordinator({ leaseTtlMs: 900, joinPollMs: 50 }),
    metrics: createMetrics({ withProcessMetrics: false }),
  };
  close = () => made.db.close();
});
afterAll(async () => {
  await standin?.close();
  await close?.();
});

async function addConnection(name: string) {
  const saved = await saveStandinConnection(replicaA, "PROXMOX", standin, name);
  return saved.id;
}

const metricValue = async (
  services: AppServices,
  name: string,
  labels: Record<string, string> = {},
) =>
  (await services.metrics.registry.getSingleMetric(name)?.get())?.values
    .filter((v) => Object.entries(labels).every(([key, value]) => v.labels[key] === value))
    .reduce((sum, v) => sum + v.value, 0) ?? 0;

/** A RUNNING run under a live lease (a minute left) held by `holderProcess`, as a server leaves it. */
async function runUnderLease(connectionId: string, holderProcess: string | null, isDryRun = false) {
  const { prisma } = replicaA;
  const run = await prisma.syncRun.create({
    data: { connectionId, trigger: "SCHEDULE", correlationId: "other-server", isDryRun },
  });
  await prisma.syncLease.create({
    data: {
      connectionId,
      holder: "api@elsewhere:4242:deadbeef",
      holderProcess,
      syncRunId: run.id,
      expiresAt: new Date(Date.now() + 60_000),
    },
  });
  return run;
}

describe("the sync lease", () => {
  it("is taken over only once it has expired, and a holder that lost it cannot renew it", async () => {
    const id = await addConnection("lease-rules");
    const { prisma } = replicaA;
    expect(await acquireLease(prisma, id, "a", 60_000)).toBe(true);
    expect(await acquireLease(prisma, id, "b", 60_000)).toBe(false);
    expect(await renewLease(prisma, id, "a", 60_000)).toBe(true);
    await prisma.syncLease.update({
      where: { connectionId: id },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    expect(await currentLease(prisma, id)).toBeUndefined();
    expect(await acquireLease(prisma, id, "b", 60_000)).toBe(true);
    expect(await renewLease(prisma, id, "a", 60_000)).toBe(false);
    await releaseLease(prisma, id, "a"); // not the holder: changes nothing
    expect((await currentLease(prisma, id))?.holder).toBe("b");
    await releaseLease(prisma, id, "b");
    expect(await currentLease(prisma, id)).toBeUndefined();
  });

  it("a manual sync while another replica's sync runs reports that run and starts none", async () => {
    const id = await addConnection("joined");
    // A's first read is held long enough that B asks while A's run is surely still going, however
    // slow the machine (a fixed small latency let A finish first under load).
    const held = standin.faults.delay("**", 4_000, { times: 1 });
    try {
      const onA = syncConnection(replicaA, id, { trigger: "SCHEDULE" });
      const runOnA = await onA.syncRunId;
      const onB = syncConnection(replicaB, id, { trigger: "MANUAL" });
      expect(await onB.syncRunId).toBe(runOnA);
      const [resultA, resultB] = await Promise.all([onA.done, onB.done]);
      expect(resultB.syncRunId).toBe(resultA.syncRunId);
      expect(resultB.outcome).toBe(resultA.outcome);
    } finally {
      held.remove();
    }
    expect(await replicaA.prisma.syncRun.count({ where: { connectionId: id } })).toBe(1);
    expect(await metricValue(replicaB, "hyperlens_sync_lease_contention_total")).toBe(1);
    expect(await currentLease(replicaA.prisma, id)).toBeUndefined();
  });

  it("a second request in the same replica joins the running sync", async () => {
    const id = await addConnection("joined-locally");
    const first = syncConnection(replicaA, id, { trigger: "MANUAL" });
    const second = syncConnection(replicaA, id, { trigger: "API" });
    expect(await second.syncRunId).toBe(await first.syncRunId);
    await Promise.all([first.done, second.done]);
    expect(await replicaA.prisma.syncRun.count({ where: { connectionId: id } })).toBe(1);
  });

  it("a second request on the same server that joins the running sync counts as lease contention", async () => {
    const id = await addConnection("contention-locally");
    const contention = (labels: Record<string, string>) =>
      metricValue(replicaA, "hyperlens_sync_lease_contention_total", labels);
    const before = await contention({ trigger: "API", held_by: "this_server" });
    const first = syncConnection(replicaA, id, { trigger: "MANUAL" });
    const second = syncConnection(replicaA, id, { trigger: "API" });
    expect(await second.syncRunId).toBe(await first.syncRunId);
    await Promise.all([first.done, second.done]);
    expect(await contention({ trigger: "API", held_by: "this_server" })).toBe(before + 1);
  });

  it("a request never joins the run of a holder whose process is known dead", async () => {
    const id = await addConnection("holder-killed");
    const holder = await startSleeper();
    await holder.kill();
    const orphan = await runUnderLease(id, holder.identity);
    const sync = syncConnection(replicaB, id, { trigger: "MANUAL" });
    expect(await sync.syncRunId, "the request reported the dead holder's run").not.toBe(orphan.id);
    await sync.done;
    expect(
      await replicaA.prisma.syncRun.findUniqueOrThrow({ where: { id: orphan.id } }),
    ).toMatchObject({ outcome: "FAILED", errorClass: "interrupted" });
  }, 10_000);

  it("a request joined to a holder that is then killed takes over at once, not at the lease's expiry", async () => {
    const id = await addConnection("holder-killed-while-joined");
    const holder = await startSleeper();
    const orphan = await runUnderLease(id, holder.identity);
    const sync = syncConnection(replicaB, id, { trigger: "MANUAL" });
    // A live holder's run is joined.
    expect(await sync.syncRunId).toBe(orphan.id);
    await holder.kill();
    const result = await sync.done;
    expect(result.syncRunId).not.toBe(orphan.id);
    expect(
      await replicaA.prisma.syncRun.findUniqueOrThrow({ where: { id: orphan.id } }),
    ).toMatchObject({ outcome: "FAILED", errorClass: "interrupted" });
  }, 10_000);

  it("a run closed as interrupted is a failure of its connection, counted once per run", async () => {
    const id = await addConnection("interrupted-health");
    const { prisma } = replicaA;
    await prisma.connection.update({
      where: { id },
      data: {
        lastSyncOutcome: "SUCCESS",
        lastSyncMessage: "An old success.",
        consecutiveFailures: 0,
      },
    });
    const holder = await startSleeper();
    await holder.kill();
    for (let kill = 1; kill <= 2; kill += 1) {
      const run = await runUnderLease(id, holder.identity);
      // The sweep of a server on the same machine: the dead holder's lease goes, its run closes.
      await recoverInterruptedSyncs(prisma, false);
      expect(await prisma.syncRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
        outcome: "FAILED",
        errorClass: "interrupted",
      });
    }
    expect(await prisma.connection.findUniqueOrThrow({ where: { id } })).toMatchObject({
      lastSyncOutcome: "FAILED",
      lastErrorClass: "interrupted",
      consecutiveFailures: 2,
      lastSyncMessage: expect.stringMatching(/^Interrupted/),
    });
    expect(await currentLease(prisma, id)).toBeUndefined();
  });

  it("an interrupted dry run leaves its connection's health alone", async () => {
    const id = await addConnection("interrupted-preview");
    const { prisma } = replicaA;
    const health = { lastSyncOutcome: "SUCCESS", lastSyncMessage: "An old success." } as const;
    await prisma.connection.update({ where: { id }, data: health });
    const holder = await startSleeper();
    await holder.kill();
    const run = await runUnderLease(id, holder.identity, true);
    await recoverInterruptedSyncs(prisma, false);
    expect(await prisma.syncRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      outcome: "FAILED",
      errorClass: "interrupted",
    });
    expect(await prisma.connection.findUniqueOrThrow({ where: { id } })).toMatchObject({
      ...health,
      consecutiveFailures: 0,
    });
  });

  it("a replica whose lease was taken over stops its sync at the read, removing nothing", async () => {
    const id = await addConnection("taken-over");
    await syncConnection(replicaA, id, { trigger: "MANUAL" }).done;
    const before = await replicaA.prisma.virtualMachine.count({
      where: { connectionId: id, removedAt: null },
    });
    standin.faults.latencyMs = 150;
    try {
      const sync = syncConnection(replicaA, id, { trigger: "SCHEDULE" });
      await sync.syncRunId;
      // As if A had stalled past its expiry and another replica had taken the connection over.
      await replicaA.prisma.syncLease.update({
        where: { connectionId: id },
        data: { holder: "someone-else", expiresAt: new Date(Date.now() + 60_000) },
      });
      const result = await sync.done;
      expect(result.outcome).toBe("CANCELLED");
      expect(result.message).toContain("Another server took over");
    } finally {
      standin.faults.latencyMs = 0;
    }
    expect(
      await replicaA.prisma.virtualMachine.count({ where: { connectionId: id, removedAt: null } }),
    ).toBe(before);
    // The new holder's lease is left alone.
    expect((await currentLease(replicaA.prisma, id))?.holder).toBe("someone-else");
  });

  it("a new holder closes the run of a holder that died, and syncs normally", async () => {
    const id = await addConnection("dead-holder");
    const { prisma } = replicaA;
    const orphan = await prisma.syncRun.create({
      data: { connectionId: id, trigger: "SCHEDULE", correlationId: "dead" },
    });
    await prisma.syncLease.create({
      data: {
        connectionId: id,
        holder: "dead-replica",
        syncRunId: orphan.id,
        expiresAt: new Date(Date.now() + 300),
      },
    });
    // B joins the dead holder's run, then takes over once its lease has expired.
    const result = await syncConnection(replicaB, id, { trigger: "MANUAL" }).done;
    expect(result.outcome).toBe("SUCCESS");
    expect(result.syncRunId).not.toBe(orphan.id);
    expect(await prisma.syncRun.findUniqueOrThrow({ where: { id: orphan.id } })).toMatchObject({
      outcome: "FAILED",
      errorClass: "interrupted",
    });
  });

  it("a request that joined a dead holder's run still syncs when a sweep closed that run first", async () => {
    const id = await addConnection("swept-while-joined");
    const { prisma } = replicaA;
    const orphan = await prisma.syncRun.create({
      data: { connectionId: id, trigger: "SCHEDULE", correlationId: "dead" },
    });
    await prisma.syncLease.create({
      data: {
        connectionId: id,
        holder: "dead-replica",
        syncRunId: orphan.id,
        expiresAt: new Date(Date.now() + 300),
      },
    });
    // Another replica's sweep got to the run before this request saw the lease go.
    await prisma.syncRun.update({
      where: { id: orphan.id },
      data: { outcome: "FAILED", errorClass: "interrupted", finishedAt: new Date() },
    });
    const result = await syncConnection(replicaB, id, { trigger: "MANUAL" }).done;
    expect(result.syncRunId, "the request reported the dead holder's run").not.toBe(orphan.id);
    expect(result.outcome).toBe("SUCCESS");
  });

  it("at start-up on a server, closes runs whose lease is gone and leaves a live lease's run", async () => {
    const { prisma } = replicaA;
    const dead = await addConnection("restart-dead");
    const live = await addConnection("restart-live");
    const run = (connectionId: string) =>
      prisma.syncRun.create({ data: { connectionId, trigger: "SCHEDULE", correlationId: "x" } });
    const [deadRun, liveRun] = [await run(dead), await run(live)];
    await prisma.syncLease.create({
      data: { connectionId: dead, holder: "killed", expiresAt: new Date(Date.now() - 1_000) },
    });
    await prisma.syncLease.create({
      data: { connectionId: live, holder: "alive", expiresAt: new Date(Date.now() + 60_000) },
    });
    expect(await recoverInterruptedSyncs(prisma, false)).toBe(1);
    expect(await prisma.syncRun.findUniqueOrThrow({ where: { id: deadRun.id } })).toMatchObject({
      outcome: "FAILED",
      errorClass: "interrupted",
    });
    expect((await prisma.syncRun.findUniqueOrThrow({ where: { id: liveRun.id } })).outcome).toBe(
      "RUNNING",
    );
    expect((await currentLease(prisma, live))?.holder).toBe("alive");

    // Embedded, this process is the only one: the lease left is a killed process's.
    expect(await recoverInterruptedSyncs(prisma, true)).toBe(1);
    expect((await prisma.syncRun.findUniqueOrThrow({ where: { id: liveRun.id } })).outcome).toBe(
      "FAILED",
    );
    expect(await prisma.syncLease.count()).toBe(0);
  });
  it("a run whose holder died closes once its lease expires, with no sync of its connection", async () => {
    const { prisma } = replicaA;
    const id = await addConnection("swept");
    const orphan = await prisma.syncRun.create({
      data: { connectionId: id, trigger: "SCHEDULE", correlationId: "x" },
    });
    // Still live when a restarted server looked at start-up, so recovery had to leave it.
    await prisma.syncLease.create({
      data: {
        connectionId: id,
        holder: "killed",
        syncRunId: orphan.id,
        expiresAt: new Date(Date.now() + 400),
      },
    });
    expect(await recoverInterruptedSyncs(prisma, false)).toBe(0);
    const sweep = startAbandonedRunSweep(replicaA, 100);
    try {
      const deadline = Date.now() + 5_000;
      let run = await prisma.syncRun.findUniqueOrThrow({ where: { id: orphan.id } });
      while (run.outcome === "RUNNING" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        run = await prisma.syncRun.findUniqueOrThrow({ where: { id: orphan.id } });
      }
      expect(run, "a dead holder's run is still shown as running").toMatchObject({
        outcome: "FAILED",
        errorClass: "interrupted",
      });
      expect(run.finishedAt?.getTime()).toBeGreaterThanOrEqual(orphan.startedAt.getTime());
    } finally {
      await sweep.stop();
    }
  });
});

describe("a run closed by someone else is SYNC_FAILED in the feed (docs/behaviour.md §14.5)", () => {
  const INTERRUPTED = {
    type: "SYNC_FAILED",
    data: { errorClass: "interrupted", message: expect.stringMatching(/^Interrupted/) },
  };
  const feedOf = (syncRunId: string) =>
    replicaA.prisma.inventoryEvent.findMany({ where: { syncRunId }, orderBy: { sequence: "asc" } });

  /** The connections `feed:advanced` announces from now on. */
  function listenForNotices() {
    const announced: string[] = [];
    const notices = replicaA.events.subscribe("feed:advanced")[Symbol.asyncIterator]();
    void (async () => {
      for (let next = await notices.next(); !next.done; next = await notices.next())
        announced.push(next.value.connectionId);
    })();
    return { announced, stop: () => void notices.return?.() };
  }

  /** A RUNNING run whose holder's lease ends in `ms` and is never renewed. */
  async function orphanedRun(connectionId: string, ms: number) {
    const run = await replicaA.prisma.syncRun.create({
      data: { connectionId, trigger: "SCHEDULE", correlationId: "dead" },
    });
    await replicaA.prisma.syncLease.create({
      data: {
        connectionId,
        holder: "dead-replica",
        syncRunId: run.id,
        expiresAt: new Date(Date.now() + ms),
      },
    });
    return run;
  }

  it("closed by the next holder of its lease", async () => {
    const id = await addConnection("feed-next-holder");
    const orphan = await orphanedRun(id, 300);
    expect((await syncConnection(replicaB, id, { trigger: "MANUAL" }).done).outcome).toBe(
      "SUCCESS",
    );
    expect(await feedOf(orphan.id)).toMatchObject([{ ...INTERRUPTED, connectionId: id }]);
  });

  it("closed at start-up, on a server and embedded", async () => {
    const dead = await addConnection("feed-restart-dead");
    const live = await addConnection("feed-restart-live");
    const [deadRun, liveRun] = [await orphanedRun(dead, -1_000), await orphanedRun(live, 60_000)];
    expect(await recoverInterruptedSyncs(replicaA.prisma, false)).toBe(1);
    expect(await feedOf(deadRun.id)).toMatchObject([INTERRUPTED]);
    expect(await feedOf(liveRun.id)).toEqual([]);
    await recoverInterruptedSyncs(replicaA.prisma, true);
    expect(await feedOf(liveRun.id)).toMatchObject([INTERRUPTED]);
  });

  it("closed by the periodic sweep once its lease expired, announced to feed readers", async () => {
    const id = await addConnection("feed-swept");
    const orphan = await orphanedRun(id, 300);
    const notices = listenForNotices();
    const sweep = startAbandonedRunSweep(replicaA, 100);
    try {
      await expect.poll(() => feedOf(orphan.id), { timeout: 5_000 }).toMatchObject([INTERRUPTED]);
      await expect.poll(() => notices.announced).toContain(id);
    } finally {
      await sweep.stop();
      notices.stop();
    }
  });

  it("an interrupted dry run appends nothing", async () => {
    const id = await addConnection("feed-interrupted-preview");
    const holder = await startSleeper();
    await holder.kill();
    const run = await runUnderLease(id, holder.identity, true);
    await recoverInterruptedSyncs(replicaA.prisma, false);
    expect(
      (await replicaA.prisma.syncRun.findUniqueOrThrow({ where: { id: run.id } })).outcome,
    ).toBe("FAILED");
    expect(await feedOf(run.id)).toEqual([]);
  });
});
