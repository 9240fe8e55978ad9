// Full syncs of one source against its stand-in (in its own process), run by a Hyperlens server
// in its own process and driven over GraphQL: at the source's default concurrency (Proxmox 16 per
// connection and 2 per node, the others 4), again unchanged, and at concurrency 1 in the same run;
// requests per sync; the most in flight (per node for Proxmox); the server's peak RSS.
import type { ConnectionKind } from "@hyperlens/shared";
import { withBenchServer } from "./bench-server.ts";
import {
  formatProfileSummary,
  type ProfileWindow,
  profileClockMicros,
  readProfile,
  summariseProfile,
} from "./cpu-profile-summary.ts";
import type { Figure } from "./figures.ts";
import type { GraphqlCall } from "./graphql-client.ts";
import type { HyperlensProcess } from "./hyperlens-process.ts";
import { settings } from "./settings.ts";
import { type StandinOptions, type StandinStats, startStandin } from "./standin.ts";

/** One source to benchmark. */
export interface SyncScenario {
  /** The table's scenario column ("Proxmox 10 nodes / 5,000 guests"). */
  name: string;
  kind: ConnectionKind;
  standin: StandinOptions;
  /** The GraphQL connection input, without name and concurrency. */
  connection: (url: string, caPem: string) => Record<string, unknown>;
  describeRequests: (stats: StandinStats) => string;
  /** The connection's default limits (docs/behaviour.md §3.7); `nodes` for Proxmox's. */
  limits: { perConnection: number; perNode?: number; nodes?: number };
  /** The speed-up over concurrency 1 the default limits must reach. */
  speedUpTarget: number;
}

/** Requests the default limits keep in flight at most: min(per node × nodes, per connection). */
function effectiveConcurrency({ perConnection, perNode, nodes }: SyncScenario["limits"]) {
  return perNode && nodes ? Math.min(perNode * nodes, perConnection) : perConnection;
}

/** "16 (2 per node)" or "4". */
function limitsLabel({ perConnection, perNode }: SyncScenario["limits"]) {
  return perNode ? `${perConnection} (${perNode} per node)` : String(perConnection);
}

const TYPE_NAME: Record<ConnectionKind, string> = {
  PROXMOX: "Proxmox",
  VCD: "Vcd",
  VCENTER: "Vcenter",
};

interface SyncRun {
  outcome: string;
  message: string | null;
  startedAt: string;
  finishedAt: string | null;
  counts: { seen: number; added: number; unchanged: number; rowsWritten: number };
}

const RUN_FIELDS =
  "outcome message startedAt finishedAt counts { seen added unchanged rowsWritten }";

/** Saves a connection of the scenario's kind over GraphQL; returns its id. */
export async function saveConnection(
  call: GraphqlCall,
  scenario: Pick<SyncScenario, "kind">,
  input: Record<string, unknown>,
): Promise<string> {
  const type = TYPE_NAME[scenario.kind];
  const data = await call<{ save: { data?: { id: string }; message?: string } }>(
    `mutation($input: ${type}ConnectionInput!) { save: save${type}Connection(input: $input) {
      ... on MutationSave${type}ConnectionSuccess { data { id } } ... on ValidationError { message } } }`,
    { input },
  );
  if (!data.save.data) throw new Error(`saving the connection failed: ${data.save.message}`);
  return data.save.data.id;
}

/** Starts a sync and polls its run until it ends (a minutes-long request would time out). */
export async function syncAndWait(call: GraphqlCall, connectionId: string) {
  const { syncConnection } = await call<{ syncConnection: { id: string } }>(
    "mutation($id: ID!) { syncConnection(id: $id) { id } }",
    { id: connectionId },
  );
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const { node } = await call<{ node: SyncRun }>(
      `query($id: ID!) { node(id: $id) { ... on SyncRun { ${RUN_FIELDS} } } }`,
      { id: syncConnection.id },
    );
    if (node.outcome === "RUNNING" || !node.finishedAt) continue;
    if (node.outcome !== "SUCCESS") throw new Error(`sync ${node.outcome}: ${node.message}`);
    const seconds = (Date.parse(node.finishedAt) - Date.parse(node.startedAt)) / 1000;
    return { run: node, seconds };
  }
}

/** Runs one scenario and returns its figures. */
export async function benchSourceSync(scenario: SyncScenario): Promise<Figure[]> {
  const standin = await startStandin(scenario.standin);
  let profiled: [string, ProfileWindow][] = [];
  try {
    const afterStop = (server: HyperlensProcess) =>
      printProfile(scenario.name, server.cpuProfileFile(), profiled);
    return await withBenchServer({ afterStop }, async ({ server, call }) => {
      const base = scenario.connection(standin.url, standin.caPem);
      const connect = (name: string, maxConcurrentRequests: number) =>
        saveConnection(call, scenario, { ...base, name, maxConcurrentRequests });
      const timed = async (connectionId: string): Promise<Timed> => {
        await standin.takeStats();
        const cpuBefore = server.cpuSeconds();
        const from = profileClockMicros();
        const sync = await syncAndWait(call, connectionId);
        const window = { from, to: profileClockMicros() };
        const stats = await standin.takeStats();
        const cpuSeconds = server.cpuSeconds() - cpuBefore;
        return { ...sync, stats, cpuSeconds, rssMb: server.peakRssMb(), window };
      };
      const readyRssMb = server.peakRssMb();
      const atDefaultId = await connect("bench-default", scenario.limits.perConnection);
      const atDefault = await timed(atDefaultId);
      const unchanged = await timed(atDefaultId);
      const atOne = await timed(await connect("bench-c1", 1));
      profiled = [
        ["full sync, default concurrency", atDefault.window],
        ["unchanged re-sync", unchanged.window],
      ];
      return syncFigures(scenario, { readyRssMb, atDefault, unchanged, atOne });
    });
  } finally {
    standin.stop();
  }
}

type Timed = {
  run: SyncRun;
  seconds: number;
  stats: StandinStats;
  /** CPU seconds the server used during the sync. */
  cpuSeconds: number;
  rssMb: number;
  /** When the sync ran, on the clock of the server's CPU profile. */
  window: ProfileWindow;
};

/** With BENCH_CPU_PROF: where the server's CPU went during each profiled sync. */
function printProfile(name: string, file: string | undefined, syncs: [string, ProfileWindow][]) {
  if (!file || !syncs.length) return;
  const profile = readProfile(file);
  for (const [sync, window] of syncs) {
    const title = `${name}, ${sync} (profile clock ${window.from}–${window.to} µs)`;
    console.log(formatProfileSummary(title, summariseProfile(profile, [window])));
  }
  console.log(`(whole profile: ${file})`);
}

/** Issue 26's targets: the server's CPU per guest read, a full sync and an unchanged one. */
const FULL_SYNC_CPU_MS_PER_GUEST = 0.5;
const UNCHANGED_SYNC_CPU_MS_PER_GUEST = 0.3;

const cpuMsPerGuest = (t: Timed) => (t.cpuSeconds * 1000) / Math.max(1, t.run.counts.seen);

/** CPU used on both sides: near the wall time × cores, the run measured the CPU, not the pool. */
const cpuNote = (t: Timed) =>
  `CPU: server ${t.cpuSeconds.toFixed(0)} s, stand-in ${t.stats.cpuSeconds.toFixed(0)} s`;

function syncFigures(
  scenario: SyncScenario,
  m: { readyRssMb: number; atDefault: Timed; unchanged: Timed; atOne: Timed },
): Figure[] {
  const name = scenario.name;
  const speedUp = m.atOne.seconds / m.atDefault.seconds;
  const repeated = Object.entries(m.atDefault.stats.repeated);
  const rows = m.unchanged.run.counts.rowsWritten;
  const { perConnection } = scenario.limits;
  const fullCpu = cpuMsPerGuest(m.atDefault);
  const unchangedCpu = cpuMsPerGuest(m.unchanged);
  return [
    {
      scenario: name,
      figure: `full sync, concurrency ${limitsLabel(scenario.limits)}`,
      value: m.atDefault.seconds,
      unit: "s",
      note: `${m.atDefault.run.counts.added} added; ${cpuNote(m.atDefault)}`,
    },
    {
      scenario: name,
      figure: "full sync, concurrency 1",
      value: m.atOne.seconds,
      unit: "s",
      note: cpuNote(m.atOne),
    },
    {
      scenario: name,
      figure: "speed-up over concurrency 1",
      value: speedUp,
      unit: "×",
      target: `≥ ${scenario.speedUpTarget}×`,
      isMet: speedUp >= scenario.speedUpTarget,
    },
    ...(scenario.limits.perNode ? nodeFigures(scenario, m.atDefault) : []),
    {
      scenario: name,
      figure: "unchanged re-sync",
      value: m.unchanged.seconds,
      unit: "s",
      note: cpuNote(m.unchanged),
    },
    {
      scenario: name,
      figure: "server CPU per guest, full sync",
      value: fullCpu,
      unit: "ms",
      target: `≤ ${FULL_SYNC_CPU_MS_PER_GUEST} ms`,
      isMet: fullCpu <= FULL_SYNC_CPU_MS_PER_GUEST,
      note: `${m.atDefault.cpuSeconds.toFixed(2)} s for ${m.atDefault.run.counts.seen} guests at the default concurrency`,
    },
    {
      scenario: name,
      figure: "server CPU per guest, unchanged re-sync",
      value: unchangedCpu,
      unit: "ms",
      target: `≤ ${UNCHANGED_SYNC_CPU_MS_PER_GUEST} ms`,
      isMet: unchangedCpu <= UNCHANGED_SYNC_CPU_MS_PER_GUEST,
      note: `${m.unchanged.cpuSeconds.toFixed(2)} s for ${m.unchanged.run.counts.seen} guests`,
    },
    {
      scenario: name,
      figure: "rows written by the re-sync",
      value: rows,
      unit: "",
      target: "0",
      isMet: rows === 0,
      note: `${m.unchanged.run.counts.unchanged} unchanged`,
    },
    {
      scenario: name,
      figure: "requests per sync",
      value: m.atDefault.stats.total,
      unit: "",
      note: `${scenario.describeRequests(m.atDefault.stats)}; ${JSON.stringify(m.atDefault.stats.byMethod)}`,
    },
    {
      scenario: name,
      figure: "requests made twice",
      value: repeated.length,
      unit: "",
      target: "0",
      isMet: repeated.length === 0,
      ...(repeated.length
        ? {
            note: repeated
              .slice(0, 5)
              .map(([p, n]) => `${p} ×${n}`)
              .join(", "),
          }
        : {}),
    },
    {
      scenario: name,
      figure: "most requests in flight",
      value: m.atDefault.stats.maxInFlight,
      unit: "",
      target: `≤ ${perConnection}`,
      isMet: m.atDefault.stats.maxInFlight <= perConnection,
    },
    {
      scenario: name,
      figure: "peak RSS",
      value: m.atOne.rssMb,
      unit: "MB",
      target: "< 300 MB",
      isMet: m.atOne.rssMb < 300,
      note: `ready ${m.readyRssMb.toFixed(0)} MB, after the default ${m.atDefault.rssMb.toFixed(0)}, re-sync ${m.unchanged.rssMb.toFixed(0)}, c1 ${m.atOne.rssMb.toFixed(0)} (${settings.runtime})`,
    },
  ];
}

/**
 * Proxmox: the most requests one node had in flight, and the full sync against its floor, the
 * requests at the stand-in's latency shared by the effective concurrency (docs/behaviour.md §3.7).
 */
function nodeFigures(scenario: SyncScenario, atDefault: Timed): Figure[] {
  const perNode = scenario.limits.perNode ?? 0;
  const byNode = Object.values(atDefault.stats.maxInFlightByNode ?? {});
  const mostForOneNode = byNode.length ? Math.max(...byNode) : 0;
  const effective = effectiveConcurrency(scenario.limits);
  const floorSeconds = (atDefault.stats.total * settings.latencyMs) / 1000 / effective;
  const overFloor = atDefault.seconds / floorSeconds;
  return [
    {
      scenario: scenario.name,
      figure: "most requests in flight for one node",
      value: mostForOneNode,
      unit: "",
      target: `≤ ${perNode}`,
      isMet: byNode.length > 0 && mostForOneNode <= perNode,
      note: `${byNode.length} nodes; the stand-in serves each with 3 workers`,
    },
    {
      scenario: scenario.name,
      figure: "full sync ÷ (requests × latency ÷ effective concurrency)",
      value: overFloor,
      unit: "×",
      target: "≤ 1.3×",
      isMet: overFloor <= 1.3,
      note: `${atDefault.stats.total} × ${settings.latencyMs} ms ÷ ${effective} = ${floorSeconds.toFixed(1)} s; meant for BENCH_LATENCY_MS=5`,
    },
  ];
}
