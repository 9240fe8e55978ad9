// Full syncs against a stand-in in its own process: time at the default concurrency (4) and at 1
// in the same run, requests per sync (and whether any was made twice), the rows a second,
// unchanged sync writes, and peak RSS. Prints figures only.
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { createTestDatabase, generateSecretKeyText } from "@hyperlens/db";
import type { ConnectionKind } from "@hyperlens/shared";
import { createServices } from "../apps/api/src/app.ts";
import { loadConfig } from "../apps/api/src/config.ts";
import { createLogger } from "../apps/api/src/logger.ts";
import { syncConnection } from "../apps/api/src/services/connection-runner.ts";
import { type ConnectionInput, saveConnection } from "../apps/api/src/services/connections.ts";

/** Requests the stand-in answered, by method and by `METHOD path` (query strings left out). */
export interface StandinStats {
  total: number;
  byPath: Record<string, number>;
  byMethod: Record<string, number>;
}

/** One source to benchmark. */
export interface SyncScenario {
  title: string;
  kind: ConnectionKind;
  standin: Record<string, unknown>;
  connection: (url: string, caPem: string) => Omit<ConnectionInput, "name">;
  /** Paths that are legitimately asked more than once (paged lists, login, logout). */
  repeats?: RegExp;
  describeRequests: (stats: StandinStats) => string;
}

async function startStandin(options: Record<string, unknown>) {
  const child = fork(
    path.join(import.meta.dirname, "standin-process.ts"),
    [JSON.stringify(options)],
    {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    },
  );
  if (!child.stdout) throw new Error("no stdout from the stand-in");
  for await (const line of createInterface({ input: child.stdout })) {
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

/** Runs one scenario and prints its figures. */
export async function benchSourceSync(scenario: SyncScenario) {
  const standin = await startStandin(scenario.standin);
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
  try {
    const timed = async (connectionId: string) => {
      await statsOf(standin.child);
      const started = performance.now();
      const result = await syncConnection(services, connectionId, { trigger: "CLI" }).done;
      return {
        result,
        seconds: (performance.now() - started) / 1000,
        stats: await statsOf(standin.child),
      };
    };
    const connect = async (name: string, maxConcurrentRequests: number) =>
      saveConnection(
        services.prisma,
        services.secrets,
        scenario.kind,
        { ...scenario.connection(standin.url, standin.caPem), name, maxConcurrentRequests },
        null,
      );
    const c4 = await connect("bench-c4", 4);
    const atDefault = await timed(c4.id);
    const second = await timed(c4.id);
    const atOne = await timed((await connect("bench-c1", 1)).id);
    const repeated = Object.entries(atDefault.stats.byPath).filter(
      ([p, n]) => n > 1 && !(scenario.repeats?.test(p) ?? false),
    );
    const rssMb = process.resourceUsage().maxRSS / 1024;
    const speedUp = atOne.seconds / atDefault.seconds;
    console.log(
      [
        `${scenario.title} (stand-in in its own process), ${services.db.kind}`,
        `  concurrency 4 (default): ${atDefault.seconds.toFixed(1)} s, outcome ${atDefault.result.outcome}, ${atDefault.result.counts.added} added`,
        `  concurrency 1:           ${atOne.seconds.toFixed(1)} s   speed-up ${speedUp.toFixed(2)}x (target >= 3.5x)`,
        `  requests per sync: ${atDefault.stats.total} (${scenario.describeRequests(atDefault.stats)}); made twice: ${repeated.length} (target 0)`,
        `  methods: ${JSON.stringify(atDefault.stats.byMethod)}`,
        `  second, unchanged sync: ${second.seconds.toFixed(1)} s, rows written ${second.result.counts.rowsWritten} (target 0), ${second.result.counts.unchanged} unchanged`,
        `  peak RSS of the Hyperlens process: ${rssMb.toFixed(0)} MB (target < 300 MB)`,
        ...(repeated.length
          ? [
              `  repeated: ${repeated
                .slice(0, 5)
                .map(([p, n]) => `${p} x${n}`)
                .join(", ")}`,
            ]
          : []),
      ].join("\n"),
    );
  } finally {
    await services.db.close();
    await scratch?.close();
    standin.child.send("stop");
    rmSync(dataDir, { recursive: true, force: true });
  }
}
