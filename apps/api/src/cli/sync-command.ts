// `hyperlens sync <connection> | --all [--force]`: one line per connection; exit code 1 when any
// failed. Uses the same lease as the server, so it never runs beside a replica's sync.
import type { Connection } from "@hyperlens/db";
import type { SyncResult } from "@hyperlens/sync";
import type { AppServices } from "../context.ts";
import { NotFoundError } from "../errors.ts";
import { syncConnection, trySyncConnection } from "../syncs/coordinator.ts";
import { isDue } from "../syncs/due.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function summary(connection: Connection, result: SyncResult): string {
  const c = result.counts;
  const figures = `${c.seen} seen, ${c.added} added, ${c.changed} changed, ${c.removed} removed`;
  const tail = result.outcome === "SUCCESS" ? "" : ` — ${result.message}`;
  return `${connection.name} (${connection.kind}): ${result.outcome}, ${figures}${tail}`;
}

const label = (connection: Connection) => `${connection.name} (${connection.kind})`;

/** What to sync: one connection (always), or every active one (the due ones unless forced). */
export type SyncTarget = { all: true; force: boolean } | { name: string };

async function syncIfDue(services: AppServices, connection: Connection): Promise<boolean> {
  const now = services.syncs.now();
  const shouldRun = (fresh: Connection) => fresh.isActive && isDue(fresh, services.syncs.now());
  if (!shouldRun(connection)) {
    const next = new Date(
      (connection.lastSyncAt?.getTime() ?? now.getTime()) + connection.syncIntervalSeconds * 1000,
    );
    console.log(`${label(connection)}: not due (next sync at ${next.toISOString()})`);
    return true;
  }
  const attempt = await trySyncConnection(services, connection.id, { trigger: "CLI", shouldRun });
  if (attempt.kind === "held") {
    console.log(`${label(connection)}: already syncing on ${attempt.lease?.holder ?? "a server"}`);
    return true;
  }
  if (attempt.kind === "skipped") {
    console.log(`${label(connection)}: not due (synced meanwhile by another server)`);
    return true;
  }
  const result = await attempt.sync.done;
  console.log(summary(connection, result));
  return result.outcome !== "FAILED";
}

/** Syncs the named connection, or every active (due) one; returns whether none failed. */
export async function runSyncCommand(services: AppServices, target: SyncTarget) {
  const connections =
    "all" in target
      ? await services.prisma.connection.findMany({
          where: { isActive: true },
          orderBy: { name: "asc" },
        })
      : await services.prisma.connection.findMany({
          where: UUID.test(target.name)
            ? { OR: [{ name: target.name }, { id: target.name }] }
            : { name: target.name },
        });
  if (connections.length === 0) {
    throw new NotFoundError(
      "all" in target ? "There are no active connections." : `No connection named ${target.name}.`,
    );
  }
  let hasFailure = false;
  for (const connection of connections) {
    if ("all" in target && !target.force) {
      if (!(await syncIfDue(services, connection))) hasFailure = true;
      continue;
    }
    // A named (or forced) sync runs now; one already running elsewhere is joined and reported.
    const result = await syncConnection(services, connection.id, { trigger: "CLI" }).done;
    if (result.outcome === "FAILED") hasFailure = true;
    console.log(summary(connection, result));
  }
  return !hasFailure;
}
