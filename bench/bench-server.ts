// A scenario's Hyperlens server on its own database, started and stopped the one way every
// scenario needs: the database prepared first, the server on it, and when the scenario fails, the
// end of the server's log in the error; the server stopped and the database thrown away after.
import type { AppServices } from "../apps/api/src/context.ts";
import { type BenchDatabase, prepareDatabase } from "./bench-database.ts";
import { type GraphqlCall, graphqlClient } from "./graphql-client.ts";
import { type HyperlensProcess, startHyperlens } from "./hyperlens-process.ts";
import { settings } from "./settings.ts";

/** What a scenario runs against. */
export interface BenchServer {
  db: BenchDatabase;
  server: HyperlensProcess;
  /** GraphQL calls with the database's all-capabilities token. */
  call: GraphqlCall;
}

/** How to start the server. */
export interface BenchServerOptions {
  /** Variables beside the database's (e.g. HYPERLENS_SCHEDULER). */
  env?: Record<string, string>;
  /** Runs on the new database before the server opens it. */
  seed?: (services: AppServices) => Promise<void>;
  /** A database prepared elsewhere (the previous release's), instead of a new one. */
  db?: BenchDatabase;
  /** The checkout whose server runs (default: this one). */
  checkout?: string;
}

/** A started server and how to stop it (and throw its database away). */
export interface StartedBenchServer extends BenchServer {
  stop(): Promise<void>;
}

/** Prepares the database and starts the server on it; the caller stops it. */
export async function startBenchServer(
  options: BenchServerOptions = {},
): Promise<StartedBenchServer> {
  const db = options.db ?? (await prepareDatabase(options.seed));
  let server: HyperlensProcess;
  try {
    server = await startHyperlens({
      env: { ...db.env, ...options.env },
      runtime: settings.runtime,
      logFile: `${db.dir}/hyperlens.log`,
      ...(options.checkout ? { checkout: options.checkout } : {}),
    });
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    db,
    server,
    call: graphqlClient(server.url, db.token),
    async stop() {
      try {
        await server.stop();
      } finally {
        await db.close();
      }
    },
  };
}

/**
 * Runs `scenario` against a new server and stops it after; a failure carries the end of the
 * server's log. `afterStop` sees the stopped server (its CPU profile is written by then).
 */
export async function withBenchServer<T>(
  options: BenchServerOptions & { afterStop?: (server: HyperlensProcess) => void },
  scenario: (bench: BenchServer) => Promise<T>,
): Promise<T> {
  const bench = await startBenchServer(options);
  try {
    return await scenario(bench);
  } catch (error) {
    throw new Error(`${(error as Error).message}\nHyperlens log:\n${bench.server.logTail()}`, {
      cause: error,
    });
  } finally {
    await bench.stop();
    options.afterStop?.(bench.server);
  }
}
