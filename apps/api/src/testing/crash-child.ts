// A Hyperlens process for the crash-safety test, driven over IPC. It opens the database the way the
// server does (createServices: data-directory lock, migrations, start-up recovery), then on request
// creates connections, syncs every connection at once, or reports what the database holds. Told
// to, it kills itself with SIGKILL at a chosen write statement of the sync.
import { closeServices, createServices } from "../app.ts";
import { loadConfig } from "../config.ts";
import { createLogger } from "../logger.ts";
import { saveConnection } from "../services/connections.ts";
import { startAbandonedRunSweep } from "../syncs/abandoned-run-sweep.ts";
import { syncConnection } from "../syncs/coordinator.ts";
import {
  type CrashMessage,
  type CrashRequest,
  isCommit,
  isInventoryWrite,
} from "./crash-protocol.ts";
import { readDatabaseState } from "./inventory-state.ts";

const send = (message: CrashMessage) => process.send?.(message);

let writes = 0;
let commits = 0;
let killAtWrite: number | undefined;
let killAfterCommits: number | undefined;
const onQuery = (sql: string) => {
  if (!isInventoryWrite(sql)) return;
  writes += 1;
  if (isCommit(sql)) commits += 1;
  else if (killAfterCommits !== undefined && commits >= killAfterCommits)
    process.kill(process.pid, "SIGKILL");
  if (killAtWrite !== undefined && writes >= killAtWrite) process.kill(process.pid, "SIGKILL");
};

// The crash tests' stand-ins listen on loopback, which a server refuses by default.
const config = { ...loadConfig(process.env), allowLoopbackTargets: true };
const services = await createServices(config, createLogger("error"), {
  role: "crash",
  onQuery,
}).catch((error: unknown) => {
  send({ kind: "error", message: String(error) });
  process.exit(1);
});

async function handle(request: CrashRequest): Promise<unknown> {
  const { prisma } = services;
  if (request.cmd === "connect") {
    for (const { kind, input } of request.connections) {
      await saveConnection(prisma, services.secrets, kind, input, null, services.targetPolicy);
    }
    return null;
  }
  if (request.cmd === "state") return readDatabaseState(prisma);
  writes = 0;
  commits = 0;
  killAtWrite = request.killAtWrite;
  killAfterCommits = request.killAfterCommits;
  const connections = await prisma.connection.findMany({ orderBy: { name: "asc" } });
  const results = await Promise.all(
    connections.map((c) => syncConnection(services, c.id, { trigger: "CLI" }).done),
  );
  killAtWrite = undefined;
  killAfterCommits = undefined;
  return results.map((result, i) => ({
    name: connections[i]?.name ?? "",
    outcome: result.outcome,
    message: result.message,
  }));
}

let queue = Promise.resolve();
process.on("message", (request: CrashRequest) => {
  queue = queue.then(() =>
    handle(request).then(
      (value) => void send({ kind: "reply", value }),
      (error: unknown) => void send({ kind: "error", message: String(error) }),
    ),
  );
});
process.on("disconnect", () => {
  void queue
    .then(() => sweep.stop())
    .then(() => closeServices(services))
    .then(() => process.exit(0));
});
// As the server does: a killed process's run still under its live lease at start-up closes later.
const sweep = startAbandonedRunSweep(services, config.syncLeaseMs);
send({ kind: "ready" });
