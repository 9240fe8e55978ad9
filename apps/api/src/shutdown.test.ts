// SIGTERM on a real server process (embedded database) while it syncs a Cloud Director: the sync
// stops at its safe point, the inventory stays, the Director session is logged out.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateSecretKeyText } from "@hyperlens/db";
import { createVcdStandin, generateDirector, type VcdStandin } from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeServices, createServices } from "./app.ts";
import { loadConfig } from "./config.ts";
import { createLogger } from "./logger.ts";
import { syncConnection } from "./syncs/coordinator.ts";
import { saveStandinConnection } from "./testing/standin-connections.ts";

let standin: VcdStandin;
let env: Record<string, string>;
let connectionId: string;
let child: ChildProcess | undefined;

const openServices = () => createServices(loadConfig(env), createLogger("silent"));

beforeAll(async () => {
  standin = await createVcdStandin({ model: generateDirector({ vms: 40, seed: 3 }) });
  env = {
    HYPERLENS_DATA_DIR: mkdtempSync(path.join(tmpdir(), "hl-shutdown-")),
    HYPERLENS_SECRET_KEY: generateSecretKeyText(),
    HYPERLENS_SYNC_JITTER_SECONDS: "0",
    HYPERLENS_SHUTDOWN_GRACE_SECONDS: "0",
    HYPERLENS_LOG_LEVEL: "warn",
    // The stand-in listens on loopback, which the server refuses by default.
    HYPERLENS_ALLOW_LOOPBACK_TARGETS: "1",
    HOST: "127.0.0.1",
    PORT: "0",
  };
  const services = await openServices();
  try {
    const saved = await saveStandinConnection(services, "VCD", standin, "director", {
      syncIntervalSeconds: 60,
    });
    connectionId = saved.id;
    const first = await syncConnection(services, connectionId, { trigger: "CLI" }).done;
    expect(first.outcome).toBe("SUCCESS");
    // Due again at once, so the server's scheduler starts a sync as soon as it is up.
    await services.prisma.connection.update({
      where: { id: connectionId },
      data: { lastSyncAt: new Date(Date.now() - 3_600_000) },
    });
  } finally {
    await closeServices(services);
  }
}, 60_000);

afterAll(async () => {
  child?.kill("SIGKILL");
  await standin?.close();
});

describe("SIGTERM while a sync runs", () => {
  it("stops the sync at its read, keeps the inventory, logs out of Director and exits 0", async () => {
    const services = await openServices();
    const before = await services.prisma.virtualMachine.count({
      where: { connectionId, removedAt: null },
    });
    await closeServices(services);
    expect(before).toBeGreaterThan(0);

    standin.faults.latencyMs = 200;
    const server = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "main.ts")],
      { env: { PATH: process.env.PATH ?? "", ...env } },
    );
    child = server;
    let output = "";
    server.stdout?.on("data", (chunk) => (output += chunk));
    server.stderr?.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));

    // Mid-sync: logged in to Director and reading.
    const deadline = Date.now() + 60_000;
    while (!(standin.openSessions > 0 && standin.requests.length > 5) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(standin.openSessions).toBeGreaterThan(0);
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    child = undefined;
    expect(output).toContain("Received SIGTERM");

    expect(standin.openSessions).toBe(0);
    const after = await openServices();
    try {
      expect(
        await after.prisma.virtualMachine.count({ where: { connectionId, removedAt: null } }),
      ).toBe(before);
      const last = await after.prisma.syncRun.findFirstOrThrow({
        where: { connectionId },
        orderBy: { startedAt: "desc" },
      });
      expect(last).toMatchObject({ trigger: "SCHEDULE", outcome: "CANCELLED" });
      expect(last.message).toContain("shutting down");
      expect(await after.prisma.syncLease.count()).toBe(0);
    } finally {
      await closeServices(after);
    }
  }, 90_000);
});
