// docs/behaviour.md §14.15–§14.16: Debian's Prometheus discovers Hyperlens' guests through
// http_sd_configs, and sees a sync's additions and removals.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { qemuGuest } from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vmGlobalId } from "../schema/virtual-machine.ts";
import { type InventoryWorld, startInventoryWorld } from "../testing/inventory-world.ts";

const PROMETHEUS = "/usr/bin/prometheus";
const NODE_EXPORTER_PORT = 9100;

type Target = { discoveredLabels: Record<string, string> };

let world: InventoryWorld;
let dir: string;
let prometheus: ChildProcess | undefined;
let prometheusUrl: string;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") return reject(new Error("no port"));
      server.close(() => resolve(address.port));
    });
  });
}

beforeAll(async () => {
  if (!existsSync(PROMETHEUS))
    throw new Error(
      `${PROMETHEUS} is missing: install Debian's prometheus (apt-get install prometheus; .ci/run does).`,
    );
  world = await startInventoryWorld();
  const token = await world.token(["VIEW_INVENTORY"]);
  dir = mkdtempSync(path.join(tmpdir(), "hyperlens-prometheus-"));
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  writeFileSync(
    path.join(dir, "prometheus.yml"),
    `global:
  scrape_interval: 1h
  evaluation_interval: 1h
scrape_configs:
  - job_name: hyperlens
    http_sd_configs:
      - url: ${world.app.url}/sd/prometheus?port=${NODE_EXPORTER_PORT}
        refresh_interval: 1s
        authorization:
          credentials: ${token}
    # Two guests at one address (the demo cluster behind two connections) stay two targets.
    relabel_configs:
      - source_labels: [__meta_hyperlens_vm_id]
        target_label: vm_id
      - source_labels: [__meta_hyperlens_vm_name]
        target_label: vm
`,
  );
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "ignore"] },
  );
}, 120_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus?.once("exit", resolve));
    prometheus.kill("SIGTERM");
    await exited;
  }
  await world?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What Prometheus discovered, by the guest's id. */
async function discovered(): Promise<Map<string, Record<string, string>>> {
  try {
    const res = await fetch(`${prometheusUrl}/api/v1/targets?state=any`);
    if (!res.ok) return new Map();
    const body = (await res.json()) as { data: { activeTargets: Target[] } };
    return new Map(
      body.data.activeTargets.map((t) => [
        t.discoveredLabels.__meta_hyperlens_vm_id ?? "",
        t.discoveredLabels,
      ]),
    );
  } catch {
    return new Map(); // not listening yet
  }
}

/** The running guests with a current, accepted address, read from the database. */
async function expectedTargets() {
  const rows = await world.app.services.prisma.virtualMachine.findMany({
    where: {
      removedAt: null,
      state: "RUNNING",
      ips: { some: { isAccepted: true, isLastKnown: false } },
    },
    select: { id: true, source: true, name: true },
  });
  return new Map(rows.map((row) => [vmGlobalId(row), row]));
}

/** Polls Prometheus until it discovered exactly `expected` (by id), or fails after 30 s. */
async function untilDiscovered(expected: Set<string>) {
  const deadline = Date.now() + 30_000;
  let got = new Map<string, Record<string, string>>();
  while (Date.now() < deadline) {
    got = await discovered();
    if (got.size === expected.size && [...expected].every((id) => got.has(id))) return got;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(new Set(got.keys())).toEqual(expected);
  return got;
}

describe("Prometheus' HTTP service discovery", () => {
  it("discovers exactly the running guests, at their primary address and the asked port, with the documented labels (§14.15)", async () => {
    const expected = await expectedTargets();
    const stopped = await world.app.services.prisma.virtualMachine.count({
      where: { removedAt: null, state: { not: "RUNNING" } },
    });
    expect(stopped).toBeGreaterThan(0);
    const got = await untilDiscovered(new Set(expected.keys()));
    const web = [...got.values()].find(
      (labels) =>
        labels.__meta_hyperlens_vm_name === "web-01" &&
        labels.__meta_hyperlens_connection === "pve-a",
    );
    const stored = await world.app.services.prisma.virtualMachine.findFirstOrThrow({
      where: { name: "web-01", connectionId: world.connections["pve-a"] },
    });
    expect(web).toMatchObject({
      __address__: `10.10.0.11:${NODE_EXPORTER_PORT}`,
      __meta_hyperlens_source: "PROXMOX",
      __meta_hyperlens_node: "pve1",
      __meta_hyperlens_cluster: "pve-prod",
      __meta_hyperlens_state: "RUNNING",
      __meta_hyperlens_tags: ",prod,web,",
      __meta_hyperlens_os: stored.guestOs,
      __meta_hyperlens_vm_id: vmGlobalId(stored),
    });
    // Prometheus keeps no empty label: a Proxmox guest has no org or VDC.
    expect(web?.__meta_hyperlens_org).toBeUndefined();
    const vcd = [...got.values()].find((labels) => labels.__meta_hyperlens_source === "VCD");
    expect(vcd?.__meta_hyperlens_vdc).not.toBe("");
    expect(vcd?.__meta_hyperlens_connection).toBe("vcd");
  }, 60_000);

  it("sees a sync's new guest and loses a removed one (§14.16)", async () => {
    world.proxmox.cluster.addGuest(
      qemuGuest({
        vmid: 900,
        name: "new-metrics-host",
        node: "pve2",
        nics: [{ mac: "BC:24:11:4A:90:00", guestIps: ["10.90.0.9/24"] }],
      }),
    );
    world.proxmox.cluster.removeGuest(101);
    await world.syncAll();
    const expected = await expectedTargets();
    const names = [...expected.values()].map((row) => `${row.source}:${row.name}`);
    expect(names.filter((name) => name === "PROXMOX:new-metrics-host")).toHaveLength(2);
    expect(names).not.toContain("PROXMOX:web-02");
    const got = await untilDiscovered(new Set(expected.keys()));
    const added = [...got.values()].filter(
      (labels) => labels.__meta_hyperlens_vm_name === "new-metrics-host",
    );
    expect(added.map((labels) => labels.__address__)).toEqual([
      `10.90.0.9:${NODE_EXPORTER_PORT}`,
      `10.90.0.9:${NODE_EXPORTER_PORT}`,
    ]);
  }, 60_000);
});
