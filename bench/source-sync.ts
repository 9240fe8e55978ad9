// Full syncs of one source against its stand-in (in its own process), run by a Hyperlens server
// in its own process and driven over GraphQL: at the default concurrency (4), again unchanged,
// and at concurrency 1 in the same run; requests per sync; the server's peak RSS.
import type { ConnectionKind } from "@hyperlens/shared";
import { prepareDatabase } from "./bench-database.ts";
import type { Figure } from "./figures.ts";
import { type GraphqlCall, graphqlClient } from "./graphql-client.ts";
import { startHyperlens } from "./hyperlens-process.ts";
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

/** Saves a connection of the scenario's kind; returns its global id. */
export async function saveConnection(
  call: GraphqlCall,
  kind: ConnectionKind,
  input: Record<string, unknown>,
): Promise<string> {
  const type = TYPE_NAME[kind];
  const data = await call<{ save: { data?: { id: string }; message?: string } }>(
    `mutation($input: ${type}ConnectionInput!) { save: save${type}Connection(input: $input) {
      ... on MutationSave${type}ConnectionSuccess { data { id } } ... on ValidationError { message } } }`,
    { input },
  );
  if (!data.save.data) throw new Error(`saving the connection failed: ${data.save.message}`);
  return data.save.data.id;
}

/** Starts a sync of the connection; returns its run's global id. */
export async function startSync(call: GraphqlCall, connectionId: string): Promise<string> {
  const { syncConnection } = await call<{ syncConnection: { id: string } }>(
    "mutation($id: ID!) { syncConnection(id: $id) { id } }",
    { id: connectionId },
  );
  return syncConnection.id;
}

/** Polls a sync run until it ends (a minutes-long request would time out); throws unless it succeeded. */
export async function waitForSync(call: GraphqlCall, runId: string) {
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const { node } = await call<{ node: SyncRun }>(
      `query($id: ID!) { node(id: $id) { ... on SyncRun { ${RUN_FIELDS} } } }`,
      { id: runId },
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
  const db = await prepareDatabase();
  try {
    const server = await startHyperlens({
      env: db.env,
      runtime: settings.runtime,
      logFile: `${db.dir}/hyperlens.log`,
    });
    try {
      const call = graphqlClient(server.url, db.token);
      const base = scenario.connection(standin.url, standin.caPem);
      const connect = (name: string, maxConcurrentRequests: number) =>
        saveConnection(call, scenario.kind, { ...base, name, maxConcurrentRequests });
      const timed = async (connectionId: string) => {
        await standin.takeStats();
        const cpuBefore = server.cpuSeconds();
        const sync = await waitForSync(call, await startSync(call, connectionId));
        const stats = await standin.takeStats();
        const cpuSeconds = server.cpuSeconds() - cpuBefore;
        return { ...sync, stats, cpuSeconds, rssMb: server.peakRssMb() };
      };
      const readyRssMb = server.peakRssMb();
      const c4 = await connect("bench-c4", 4);
      const atDefault = await timed(c4);
      const unchanged = await timed(c4);
      const atOne = await timed(await connect("bench-c1", 1));
      return syncFigures(scenario, { readyRssMb, atDefault, unchanged, atOne });
    } catch (error) {
      throw new Error(`${(error as Error).message}\nHyperlens log:\n${server.logTail()}`, {
        cause: error,
      });
    } finally {
      await server.stop();
    }
  } finally {
    standin.stop();
    await db.close();
  }
}

type Timed = {
  run: SyncRun;
  seconds: number;
  stats: StandinStats;
  /** CPU seconds the server used during the sync. */
  cpuSeconds: number;
  rssMb: number;
};

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
  return [
    {
      scenario: name,
      figure: "full sync, concurrency 4",
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
      figure: "speed-up c4 over c1",
      value: speedUp,
      unit: "×",
      target: "≥ 3.5×",
      isMet: speedUp >= 3.5,
    },
    {
      scenario: name,
      figure: "unchanged re-sync",
      value: m.unchanged.seconds,
      unit: "s",
      note: cpuNote(m.unchanged),
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
      figure: "most requests in flight, c4",
      value: m.atDefault.stats.maxInFlight,
      unit: "",
      target: "≤ 4",
      isMet: m.atDefault.stats.maxInFlight <= 4,
    },
    {
      scenario: name,
      figure: "peak RSS",
      value: m.atOne.rssMb,
      unit: "MB",
      target: "< 300 MB",
      isMet: m.atOne.rssMb < 300,
      note: `ready ${m.readyRssMb.toFixed(0)} MB, after c4 ${m.atDefault.rssMb.toFixed(0)}, re-sync ${m.unchanged.rssMb.toFixed(0)}, c1 ${m.atOne.rssMb.toFixed(0)} (${settings.runtime})`,
    },
  ];
}
