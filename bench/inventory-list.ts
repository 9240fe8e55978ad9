// The unified list over 50,000 VMs: p50/p95 of the first page (100 rows, NICs and IPs included)
// with a name filter, through the real HTTP server. Prints figures only.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, generateSecretKeyText } from "@hyperlens/db";
import type { NeutralVm } from "@hyperlens/shared";
import { createServices } from "../apps/api/src/app.ts";
import { createApiToken } from "../apps/api/src/auth/api-tokens.ts";
import { effectiveCapabilities } from "../apps/api/src/auth/viewer.ts";
import { loadConfig } from "../apps/api/src/config.ts";
import { startServer } from "../apps/api/src/http/server.ts";
import { createLogger } from "../apps/api/src/logger.ts";
import { createUser } from "../apps/api/src/services/users.ts";
import { neutralVm, seedConnection } from "../apps/api/src/testing/seed-inventory.ts";

const VMS = Number(process.env.BENCH_LIST_VMS ?? 50_000);
const RUNS = 60;
const ROLES = ["web", "api", "db", "cache", "k8s-worker", "ci", "mail", "vpn", "mon", "files"];

function vm(i: number): NeutralVm {
  return neutralVm(String(100 + i), {
    name: `${ROLES[i % ROLES.length]}-${String(i).padStart(5, "0")}`,
    cpuCount: 1 + (i % 16),
    memoryBytes: (1 + (i % 64)) * 1024 ** 3,
    location: { nodeName: `pve${i % 20}`, clusterName: "bench" },
    ips: [
      {
        address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        origin: "AGENT",
        nicKey: "net0",
        isAccepted: true,
      },
    ],
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Runs the list benchmark on the configured database and prints its figures. */
export async function benchInventoryList() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hl-bench-list-"));
  const scratch = process.env.DATABASE_URL ? await createTestDatabase() : undefined;
  const config = {
    ...loadConfig({
      HYPERLENS_DATA_DIR: dataDir,
      HYPERLENS_SECRET_KEY: generateSecretKeyText(),
      DATABASE_URL: scratch?.url ?? "",
    }),
    host: "127.0.0.1",
    port: 0,
  };
  const services = await createServices(config, createLogger("error"));
  try {
    const seeded = performance.now();
    for (let start = 0; start < VMS; start += 10_000) {
      const batch = Array.from({ length: Math.min(10_000, VMS - start) }, (_, i) => vm(start + i));
      await seedConnection(services, "PROXMOX", `bench-${start}`, batch);
    }
    const seedSeconds = (performance.now() - seeded) / 1000;
    const user = await createUser(
      services.prisma,
      { username: "bench", password: "bench-password-1234", isAdmin: true },
      null,
    );
    const viewer = {
      kind: "USER" as const,
      userId: user.id,
      username: user.username,
      isAdmin: true,
      capabilities: effectiveCapabilities(user),
    };
    const { token } = await createApiToken(services.prisma, viewer, {
      name: "bench",
      capabilities: ["VIEW_INVENTORY"],
    });
    const server = await startServer(services, config);
    const query = `query($search: String) { virtualMachines(first: 100, filter: { search: $search }) {
      totalCount edges { node { id name state cpuCount memoryBytes location { nodeName } nics { mac } ipAddresses { address } } } } }`;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const search = ROLES[i % ROLES.length];
      const started = performance.now();
      const res = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables: { search } }),
      });
      const body = (await res.json()) as { errors?: unknown };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      if (i >= 5) times.push(performance.now() - started);
    }
    await server.close();
    times.sort((a, b) => a - b);
    console.log(
      [
        `Unified list: ${VMS} VMs on ${services.db.kind} (seeded through the sync engine in ${seedSeconds.toFixed(1)} s)`,
        `  first page of 100 with a name filter and totalCount, NICs and IPs: p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms (${times.length} requests)`,
      ].join("\n"),
    );
  } finally {
    await services.db.close();
    await scratch?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchInventoryList();
