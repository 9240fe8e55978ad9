// Testing and syncing a connection: the only path from the API and the CLI to a hypervisor.
import { randomUUID } from "node:crypto";
import type { Connection } from "@hyperlens/db";
import { isHyperError } from "@hyperlens/hyper-http";
import type { SyncProgressEvent } from "@hyperlens/shared";
import { runSync, type SyncResult } from "@hyperlens/sync";
import type { AppServices } from "../context.ts";
import { driverFor } from "../sources/registry.ts";
import { readConnectionSecret } from "./connections.ts";
import { NotFoundError } from "./errors.ts";
import { publishProgress } from "./sync-events.ts";

/** What Test tells the administrator. */
export interface TestResult {
  ok: boolean;
  errorClass: string | null;
  message: string;
}

type Trigger = "SCHEDULE" | "MANUAL" | "API" | "CLI";

async function loadConnection(services: AppServices, id: string): Promise<Connection> {
  const connection = await services.prisma.connection.findUnique({ where: { id } });
  if (!connection) throw new NotFoundError(`No connection with id ${id} exists.`);
  return connection;
}

function openSession(
  services: AppServices,
  connection: Connection,
  secret: string,
  correlationId: string,
) {
  const driver = driverFor(connection.kind);
  if (!driver)
    throw new NotFoundError(`Connections of kind ${connection.kind} cannot be synced yet.`);
  const logger = services.logger.child({ connectionId: connection.id, correlationId });
  return driver.open(connection, secret, { logger, correlationId });
}

/** Logs in and reads something small; reports the real reason on failure. */
export async function testConnection(services: AppServices, id: string): Promise<TestResult> {
  const connection = await loadConnection(services, id);
  try {
    const secret = await readConnectionSecret(services.prisma, services.secrets, id);
    const session = openSession(services, connection, secret, randomUUID());
    try {
      const { summary, privilegeWarning = null } = await session.test();
      await services.prisma.connection.update({ where: { id }, data: { privilegeWarning } });
      return {
        ok: true,
        errorClass: null,
        message: privilegeWarning ? `${summary} Warning: ${privilegeWarning}` : summary,
      };
    } finally {
      await session.close();
    }
  } catch (error) {
    if (isHyperError(error))
      return { ok: false, errorClass: error.errorClass, message: error.message };
    if (error instanceof NotFoundError)
      return { ok: false, errorClass: "config", message: error.message };
    throw error;
  }
}

/** A sync that has been asked for: its run id once the run is recorded, and its end. */
export interface StartedSync {
  syncRunId: Promise<string>;
  done: Promise<SyncResult>;
}

const running = new Map<string, StartedSync>();

/**
 * Syncs one connection. A second request while one runs in this process joins the running one
 * (never a parallel sync of the same connection).
 */
export function syncConnection(
  services: AppServices,
  id: string,
  options: { trigger: Trigger; dryRun?: boolean },
): StartedSync {
  const current = running.get(id);
  if (current) return current;
  let announce: (id: string) => void = () => {};
  const syncRunId = new Promise<string>((resolve) => {
    announce = resolve;
  });
  const done = (async () => {
    const connection = await loadConnection(services, id);
    const correlationId = randomUUID();
    let runId: string | null = null;
    const emit = (event: SyncProgressEvent) => {
      if (event.type === "started") {
        runId = event.syncRunId;
        announce(runId);
      }
      publishProgress(services.events, {
        connectionId: id,
        syncRunId: runId,
        at: new Date().toISOString(),
        event,
      });
    };
    return runSync({
      prisma: services.prisma,
      connectionId: id,
      source: connection.kind,
      trigger: options.trigger,
      dryRun: options.dryRun ?? false,
      correlationId,
      emit,
      read: async (readEmit) => {
        const secret = await readConnectionSecret(services.prisma, services.secrets, id);
        const session = openSession(services, connection, secret, correlationId);
        try {
          return await session.read(readEmit);
        } finally {
          await session.close();
        }
      },
    });
  })().finally(() => running.delete(id));
  // A sync that fails before its run is recorded (unknown connection) ends the wait too.
  const started: StartedSync = {
    syncRunId: Promise.race([syncRunId, done.then((r) => r.syncRunId)]),
    done,
  };
  running.set(id, started);
  // Callers may only wait for the start; a failure must still not become an unhandled rejection.
  done.catch((error: unknown) =>
    services.logger.error({ err: error, connectionId: id }, "Sync could not run"),
  );
  return started;
}
