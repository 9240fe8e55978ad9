// Full Proxmox sync against a stand-in with 10 nodes and 5,000 guests at 20 ms per request:
// time at the default concurrency (4) and at 1, requests per sync (and whether any was made
// twice), peak RSS, and the rows a second, unchanged sync writes. Prints figures only.
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { createTestDatabase, generateSecretKeyText } from "@hyperlens/db";
import { createServices } from "../apps/api/src/app.ts";
import { loadConfig } from "../apps/api/src/config.ts";
import { createLogger } from "../apps/api/src/logger.ts";
import { syncConnection } from "../apps/api/src/services/connection-runner.ts";
import { saveConnection } from "../apps/api/src/services/connections.ts";

const NODES = Number(process.env.BENCH_NODES ?? 10);
const GUESTS = Number(process.env.BENCH_GUESTS ?? 5000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);

interface StandinStats {
  total: number;
  byPath: Record<string, number>;
  byMethod: Record<string, number>;
}

async function startStandin(): Promise<{ child: ChildProcess; url: string; caPem: string }> {
  const child = fork(
    path.join(import.meta.dirname, "standin-process.ts"),
    [JSON.stringify({ nodes: NODES, guests: GUESTS, latencyMs: LATENCY_MS })],
    { execArgv: ["--import", "tsx"], stdio: ["ignore", "pipe", "inherit", "ipc"] },
  );
  const stdout = child.stdout;
  if (!stdout) throw new Error("no stdout from the stand-in");
  for await (const line of createInterface({ input: stdout })) {
    const { url, caPem } = JSON.parse(line) as { url: string; caPem: string };
    return { child, url, caPem };
  }
  throw new Error("the stand-in did not start");
}

function statsOf(child: ChildProcess): Promise<StandinStats> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as StandinStats));
    child.send("stats");
  });
}

/** Runs the Proxmox sync benchmark and prints its figures. */
export async function benchProxmoxSync() {
  const standin = await startStandin();
  const dataDir = mkdtempSync(path.join(tmpdir(), "hl-bench-sync-"));
  // On a PostgreSQL server the benchmark works in a throw-away database, dropped at the end.
  const scratch = process.env.DATABASE_URL ? await createTestDatabase() : undefined;
  const services = await createServices(
    loadConfig({
      HYPERLENS_DATA_DIR: dataDir,
      HYPERLENS_SECRET_KEY: generateSecretKeyText(),
      DATABASE_URL: scratch?.url ?? "",
    }),
    createLogger("error"),
  );
  const lines: string[] = [];
  try {
    const syncOnce = async (name: string, concurrency: number) => {
      const connection = await saveConnection(
        services.prisma,
        services.secrets,
        "PROXMOX",
        {
          name,
          url: standin.url,
          caPem: standin.caPem,
          username: "hyperlens@pve",
          tokenId: "inventory",
          secret: "5f0c8e4e-8f5b-4c1e-9a57-2d3b1f6c7a90",
          maxConcurrentRequests: concurrency,
        },
        null,
      );
      await statsOf(standin.child);
      const started = performance.now();
      const result = await syncConnection(services, connection.id, { trigger: "CLI" }).done;
      const seconds = (performance.now() - started) / 1000;
      const stats = await statsOf(standin.child);
      return { connection, result, seconds, stats };
    };
    const repeatNext = async (connectionId: string) => {
      const started = performance.now();
      const result = await syncConnection(services, connectionId, { trigger: "CLI" }).done;
      return {
        result,
        seconds: (performance.now() - started) / 1000,
        stats: await statsOf(standin.child),
      };
    };

    const atDefault = await syncOnce("bench-c4", 4);
    const second = await repeatNext(atDefault.connection.id);
    const atOne = await syncOnce("bench-c1", 1);
    const repeated = Object.entries(atDefault.stats.byPath).filter(([, n]) => n > 1);
    const perGuest = atDefault.stats.byPath;
    const configs = Object.keys(perGuest).filter((p) => p.endsWith("/config")).length;
    const agents = Object.keys(perGuest).filter((p) => p.includes("/agent/")).length;
    const lxcLive = Object.keys(perGuest).filter((p) => p.endsWith("/interfaces")).length;
    const rssMb = process.resourceUsage().maxRSS / 1024;
    lines.push(
      `Proxmox full sync: ${NODES} nodes, ${GUESTS} guests, ${LATENCY_MS} ms per request (stand-in in its own process), ${services.db.kind}`,
      `  concurrency 4 (default): ${atDefault.seconds.toFixed(1)} s, outcome ${atDefault.result.outcome}, ${atDefault.result.counts.added} added`,
      `  concurrency 1:           ${atOne.seconds.toFixed(1)} s   speed-up ${(atOne.seconds / atDefault.seconds).toFixed(2)}x (target >= 3.5x)`,
      `  requests per sync: ${atDefault.stats.total} (${configs} configs, ${agents} agent calls, ${lxcLive} container interfaces, ${atDefault.stats.total - configs - agents - lxcLive} lists and cluster); made twice: ${repeated.length} (target 0)`,
      `  methods: ${JSON.stringify(atDefault.stats.byMethod)}`,
      `  second, unchanged sync: ${second.seconds.toFixed(1)} s, rows written ${second.result.counts.rowsWritten} (target 0), ${second.result.counts.unchanged} unchanged`,
      `  peak RSS of the Hyperlens process: ${rssMb.toFixed(0)} MB (target < 300 MB)`,
    );
    if (repeated.length)
      lines.push(
        `  repeated: ${repeated
          .slice(0, 5)
          .map(([p, n]) => `${p} x${n}`)
          .join(", ")}`,
      );
  } finally {
    await services.db.close();
    await scratch?.close();
    standin.child.send("stop");
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(lines.join("\n"));
}

if (import.meta.url === `file://${process.argv[1]}`) await benchProxmoxSync();
