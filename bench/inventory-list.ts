// The unified list over 50,000 VMs: p50/p95 of the first page (100 rows, NICs and IPs included)
// with a name filter, over HTTP from a Hyperlens server in its own process (the VMs are seeded
// through the sync engine before it starts), and that server's peak RSS. Then under load: waves
// of 50 concurrent first pages, the same while the server syncs a Proxmox stand-in, and on
// PostgreSQL waves of 200 spread over two replicas (a second server on the same database).
import type { NeutralVm } from "@hyperlens/shared";
import { neutralVm, seedConnection } from "../apps/api/src/testing/seed-inventory.ts";
import { prepareDatabase } from "./bench-database.ts";
import type { Figure } from "./figures.ts";
import { type GraphqlCall, graphqlClient } from "./graphql-client.ts";
import { type HyperlensProcess, startHyperlens } from "./hyperlens-process.ts";
import { measureListReadStrategies } from "./list-read-strategies.ts";
import { proxmoxStandinConnection } from "./proxmox-sync.ts";
import { settings } from "./settings.ts";
import { saveConnection, syncAndWait } from "./source-sync.ts";
import { startStandin } from "./standin.ts";

const ROLES = ["web", "api", "db", "cache", "k8s-worker", "ci", "mail", "vpn", "mon", "files"];
// Untimed: every search term once, so each query shape has run and the pool's sessions are open,
// as on a server in use.
const WARM_UP = ROLES.length;

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

/** Concurrent requests per wave on one server, and over two replicas on PostgreSQL. */
const CONCURRENT = 50;
const CONCURRENT_REPLICAS = 200;
/** Requests timed under concurrency: waves until at least this many. */
const CONCURRENT_SAMPLES = 200;
/** The guests of the stand-in synced while the list is read. */
const SYNC_GUESTS = 5000;

const QUERY = `query($search: String) { virtualMachines(first: 100, filter: { search: $search }) {
  totalCount edges { node { id name state cpuCount memoryBytes location { nodeName } nics { mac } ipAddresses { address } } } } }`;

/** One first page, timed, in ms. */
async function timedPage(call: GraphqlCall, i: number): Promise<number> {
  const started = performance.now();
  await call(QUERY, { search: ROLES[i % ROLES.length] });
  return performance.now() - started;
}

/**
 * Waves of `concurrency` first pages sent at once, round-robin over `calls` (one per replica),
 * until `enough()` says so (at least one wave); the latency of every request.
 */
async function concurrentWaves(
  calls: GraphqlCall[],
  concurrency: number,
  enough: (times: number[]) => boolean,
): Promise<number[]> {
  const times: number[] = [];
  do {
    const wave = Array.from({ length: concurrency }, (_, i) =>
      timedPage(calls[i % calls.length] as GraphqlCall, times.length + i),
    );
    times.push(...(await Promise.all(wave)));
  } while (!enough(times));
  return times.sort((a, b) => a - b);
}

/** Waves of first pages while the server runs a full sync of a Proxmox stand-in. */
async function wavesDuringSync(call: GraphqlCall): Promise<{ times: number[]; syncS: number }> {
  const standin = await startStandin({
    kind: "proxmox",
    nodes: 10,
    guests: SYNC_GUESTS,
    latencyMs: settings.latencyMs,
  });
  try {
    const id = await saveConnection(
      call,
      { kind: "PROXMOX" },
      {
        ...proxmoxStandinConnection(standin.url, standin.caPem),
        name: "bench-list-sync",
      },
    );
    const started = performance.now();
    let isSyncing = true;
    const sync = syncAndWait(call, id).finally(() => {
      isSyncing = false;
    });
    // The waves slow the sync down as much as it slows them: enough samples, then the sync ends alone.
    const times = await concurrentWaves(
      [call],
      CONCURRENT,
      (done) => !isSyncing || done.length >= CONCURRENT_SAMPLES,
    );
    await sync;
    return { times, syncS: (performance.now() - started) / 1000 };
  } finally {
    standin.stop();
  }
}

/** Runs the list scenario on the configured database and returns its figures. */
export async function benchInventoryList(): Promise<Figure[]> {
  const vms = settings.listVms;
  let seedSeconds = 0;
  const db = await prepareDatabase(async (services) => {
    const seeded = performance.now();
    for (let start = 0; start < vms; start += 10_000) {
      const batch = Array.from({ length: Math.min(10_000, vms - start) }, (_, i) => vm(start + i));
      await seedConnection(services, "PROXMOX", `bench-${start}`, batch);
    }
    seedSeconds = (performance.now() - seeded) / 1000;
  });
  try {
    const server = await startHyperlens({
      env: db.env,
      runtime: settings.runtime,
      logFile: `${db.dir}/hyperlens.log`,
    });
    const times: number[] = [];
    let cpuBefore = 0;
    try {
      const call = graphqlClient(server.url, db.token);
      for (let i = 0; i < settings.listRuns + WARM_UP; i++) {
        if (i === WARM_UP) cpuBefore = server.cpuSeconds();
        const took = await timedPage(call, i);
        if (i >= WARM_UP) times.push(took);
      }
      const cpuMsPerRequest = ((server.cpuSeconds() - cpuBefore) * 1000) / times.length;
      times.sort((a, b) => a - b);
      const concurrent = await concurrentWaves(
        [call],
        CONCURRENT,
        (done) => done.length >= CONCURRENT_SAMPLES,
      );
      const rssMb = server.peakRssMb();
      const name = `Unified list over ${vms.toLocaleString("en-US")} VMs`;
      const onPostgres = db.kind === "postgres";
      const p95 = percentile(times, 95);
      const concurrentP95 = percentile(concurrent, 95);
      const replicas = onPostgres ? await twoReplicaFigure(server, db, name) : [];
      const duringSync = await wavesDuringSync(call);
      const figures: Figure[] = [
        {
          scenario: name,
          figure: "first page p50",
          value: percentile(times, 50),
          unit: "ms",
          note: `100 rows with a name filter, totalCount, NICs and IPs; ${times.length} requests on ${db.kind}; seeded through the sync engine in ${seedSeconds.toFixed(1)} s`,
        },
        {
          scenario: name,
          figure: "first page p95",
          value: p95,
          unit: "ms",
          target: onPostgres ? "< 50 ms on PostgreSQL" : "< 100 ms embedded",
          isMet: onPostgres ? p95 < 50 : p95 < 100,
          // CPU time varies less than wall time on a shared machine: it tells a change from noise.
          note: `server CPU ${cpuMsPerRequest.toFixed(1)} ms per request`,
        },
        {
          scenario: name,
          figure: "peak RSS",
          value: rssMb,
          unit: "MB",
          target: "< 300 MB",
          isMet: rssMb < 300,
          note: `ready ${server.readySeconds.toFixed(1)} s after spawn (${settings.runtime})`,
        },
        {
          scenario: name,
          figure: `${CONCURRENT} concurrent first pages p95`,
          value: concurrentP95,
          unit: "ms",
          // The issue sets it for the embedded database; on PostgreSQL the figure is shown only.
          target: "< 1 s embedded",
          isMet: onPostgres ? null : concurrentP95 < 1000,
          note: `${concurrent.length} requests in waves of ${CONCURRENT}; p50 ${percentile(concurrent, 50).toFixed(0)} ms`,
        },
        ...replicas,
        {
          scenario: name,
          figure: `${CONCURRENT} concurrent first pages p95 during a sync`,
          value: percentile(duringSync.times, 95),
          unit: "ms",
          note: `${duringSync.times.length} requests while a full sync of a ${SYNC_GUESTS.toLocaleString("en-US")}-guest Proxmox stand-in ran (it took ${duringSync.syncS.toFixed(1)} s); p50 ${percentile(duringSync.times, 50).toFixed(0)} ms`,
        },
      ];
      if (!onPostgres) return figures;
      const reads = await measureListReadStrategies(db.env.DATABASE_URL ?? "", ROLES);
      // The request's CPU with the page's rows read by relationJoins instead of the reader.
      const withJoins = cpuMsPerRequest - reads.reader + reads.relationJoins;
      return [
        ...figures,
        {
          scenario: name,
          figure: "page rows, CPU per read",
          value: reads.reader,
          unit: "ms",
          note: `rows-by-id reader ${reads.reader.toFixed(1)} ms; Prisma relationJoins ${reads.relationJoins.toFixed(1)} ms, Prisma's default ${reads.prismaDefault.toFixed(1)} ms (same pages, this process)`,
        },
        {
          scenario: name,
          figure: "relationJoins ÷ reader, CPU per request",
          value: withJoins / cpuMsPerRequest,
          unit: "×",
          target: "> 1.20× keeps the reader",
          isMet: withJoins / cpuMsPerRequest > 1.2,
          note: `${cpuMsPerRequest.toFixed(1)} ms per request with the reader, ${withJoins.toFixed(1)} ms with relationJoins`,
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await db.close();
  }
}

/** On PostgreSQL: waves of 200 first pages spread over this server and a second replica. */
async function twoReplicaFigure(
  first: HyperlensProcess,
  db: Awaited<ReturnType<typeof prepareDatabase>>,
  name: string,
): Promise<Figure[]> {
  const second = await startHyperlens({
    // A replica has its own data directory; the database and the secret key are shared.
    env: { ...db.env, HYPERLENS_DATA_DIR: `${db.dir}/data-replica` },
    runtime: settings.runtime,
    logFile: `${db.dir}/hyperlens-replica.log`,
  });
  try {
    const calls = [graphqlClient(first.url, db.token), graphqlClient(second.url, db.token)];
    // Each replica's pool opens its sessions and each query shape runs once, untimed.
    await concurrentWaves(calls, WARM_UP * 2, () => true);
    const figure = `${CONCURRENT_REPLICAS} concurrent first pages p95, two replicas`;
    let times: number[];
    try {
      times = await concurrentWaves(
        calls,
        CONCURRENT_REPLICAS,
        (done) => done.length >= CONCURRENT_SAMPLES * 2,
      );
    } catch (error) {
      // A request refused under the load (the pool's wait for a connection ran out) misses the target.
      const message = `${(error as Error).message}\n${first.logTail()}\n${second.logTail()}`;
      return [
        {
          scenario: name,
          figure,
          value: Number.NaN,
          unit: "ms",
          target: "< 500 ms on PostgreSQL",
          isMet: false,
          note: `a request failed: ${message.replaceAll("\n", " | ").slice(0, 600)}`,
        },
      ];
    }
    const p95 = percentile(times, 95);
    return [
      {
        scenario: name,
        figure,
        value: p95,
        unit: "ms",
        target: "< 500 ms on PostgreSQL",
        isMet: p95 < 500,
        note: `${times.length} requests in waves of ${CONCURRENT_REPLICAS}, alternating between two servers on one database; p50 ${percentile(times, 50).toFixed(0)} ms`,
      },
    ];
  } finally {
    await second.stop();
  }
}
