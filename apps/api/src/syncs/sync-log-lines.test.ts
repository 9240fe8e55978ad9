// What a sync writes to the log at each level (docs/operations.md, "Log levels"): at info its
// start, each failed hypervisor call and its end with counts; debug adds every call.
import { createProxmoxStandin, type ProxmoxStandin } from "@hyperlens/standins/testing";
import type { SyncResult } from "@hyperlens/sync";
import { describe, expect, it } from "vitest";
import { eachFileConnectedTo } from "../testing/standin-connections.ts";
import { startTestApp } from "../testing/test-app.ts";

type Line = Record<string, unknown> & { level: string; msg?: string };

/** Syncs once with one agent call failing (a 500, as pveproxy sends), and returns the sync's lines. */
async function syncWithOneFailedCall(world: {
  standin: ProxmoxStandin;
  app: { logLines: string[] };
  connectionId: string;
  sync: () => Promise<SyncResult>;
}) {
  world.standin.faults.fail(/\/agent\/network-get-interfaces$/, 500, { times: 1 });
  world.app.logLines.length = 0;
  world.standin.requests.length = 0;
  const result = await world.sync();
  const lines = world.app.logLines
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.connectionId === world.connectionId);
  const calls = lines.filter((line) => line.msg === "hypervisor call");
  return { result, lines, calls, requests: world.standin.requests };
}

describe("a sync's log lines at info", () => {
  const world = eachFileConnectedTo("PROXMOX", "pve-info", () => createProxmoxStandin(), {
    startApp: () => startTestApp({}, { logLevel: "info" }),
  });

  it("are its start, each failed call and its end with counts", async () => {
    const { result, lines, calls, requests } = await syncWithOneFailedCall(world);
    const failed = requests.filter((r) => r.status >= 400);
    expect(failed.map((r) => r.status)).toContain(500);
    expect(requests.length).toBeGreaterThan(failed.length);
    expect(lines.map((line) => line.msg)).toEqual([
      "Sync started",
      ...failed.map(() => "hypervisor call"),
      "Sync finished",
    ]);
    expect(calls.map((line) => [line.level, line.status])).toEqual(
      failed.map((r) => ["warn", r.status]),
    );
    expect(lines[0]).toMatchObject({ level: "info", trigger: "MANUAL", source: "PROXMOX" });
    expect(lines.at(-1)).toMatchObject({ level: "info", counts: result.counts });
  });
});

describe("a sync's log lines at debug", () => {
  const world = eachFileConnectedTo("PROXMOX", "pve-debug", () => createProxmoxStandin(), {
    startApp: () => startTestApp({}, { logLevel: "debug" }),
  });

  it("add a line for every call, the successful ones at debug", async () => {
    const { calls, requests } = await syncWithOneFailedCall(world);
    expect(calls.map((line) => [line.level, line.status])).toEqual(
      requests.map((r) => [r.status >= 400 ? "warn" : "debug", r.status]),
    );
  });
});
