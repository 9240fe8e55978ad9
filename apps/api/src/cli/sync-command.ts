// `hyperlens sync <connection>|--all`: one line per connection; exit code 1 when any failed.
import type { Connection } from "@hyperlens/db";
import type { SyncResult } from "@hyperlens/sync";
import type { AppServices } from "../context.ts";
import { syncConnection } from "../services/connection-runner.ts";
import { NotFoundError } from "../services/errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function summary(connection: Connection, result: SyncResult): string {
  const c = result.counts;
  const figures = `${c.seen} seen, ${c.added} added, ${c.changed} changed, ${c.removed} removed`;
  const tail = result.outcome === "SUCCESS" ? "" : ` — ${result.message}`;
  return `${connection.name} (${connection.kind}): ${result.outcome}, ${figures}${tail}`;
}

/** Syncs the named connection, or every active one; returns whether all succeeded. */
export async function runSyncCommand(
  services: AppServices,
  target: { all: true } | { name: string },
) {
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
    const result = await syncConnection(services, connection.id, { trigger: "CLI" }).done;
    if (result.outcome === "FAILED") hasFailure = true;
    console.log(summary(connection, result));
  }
  return !hasFailure;
}
