// Opens the one database Hyperlens uses: embedded PGlite in a data directory by default, or a
// PostgreSQL server when a URL is given. Both speak the same SQL and run the same migrations.
// Each driver is imported when its database is opened: a server install never loads PGlite's
// engine, an embedded one never loads node-postgres.
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { acquireDataDirLock } from "./data-dir-lock.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { applyMigrations, pendingMigrations, type SqlExecutor } from "./migrate.ts";
import { type BackupArchive, dumpPglite } from "./pglite-backup.ts";
import { ensurePgliteDataDir } from "./pglite-data-dir.ts";
import { patchPgliteErrorMapping } from "./pglite-error-map.ts";
import { pgliteModule } from "./pglite-module.ts";
import { yieldBeforeEachStatement } from "./pglite-yield.ts";
import { forgetLargeStatements } from "./prisma-debug-history.ts";
import { registerPgliteRawTransactions, registerPgRawTransactions } from "./raw-transaction.ts";

export type DatabaseTarget =
  | {
      kind: "pglite";
      /** a directory, or "memory://" */
      dataDir: string;
      /** An archive an in-memory database starts from (tests start from a migrated one). */
      startFrom?: BackupArchive;
    }
  | { kind: "postgres"; url: string; pool?: PostgresPool };

/** One replica's connections to PostgreSQL (docs/operations.md, "PostgreSQL connections"). */
export interface PostgresPool {
  /** Connections this process opens at most. */
  size: number;
  /** How long a query waits for a free connection before it fails, in ms; 0 waits for ever. */
  timeoutMs: number;
}

/** The pool when none is configured: what HYPERLENS_DATABASE_POOL_* default to. */
export const DEFAULT_POSTGRES_POOL: PostgresPool = { size: 10, timeoutMs: 5_000 };

/** Observes every SQL statement sent, through Prisma or a raw transaction (tests count them). */
export type QueryListener = (sql: string) => void;

type Adapter = NonNullable<ConstructorParameters<typeof PrismaClient>[0]>["adapter"];

/** The factory, with `patch` run on each adapter it connects. */
function patchOnConnect<F extends { connect(): Promise<object> }>(
  factory: F,
  patch: (adapter: object) => void,
): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    patch(adapter);
    return adapter;
  };
  return factory;
}

function createClient(adapter: Adapter, onQuery?: QueryListener): PrismaClient {
  if (!onQuery) return new PrismaClient({ adapter });
  const client = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] });
  client.$on("query", (event) => onQuery(event.query));
  return client;
}

/** An open database: the Prisma client plus raw SQL for bulk writes, readiness and shutdown. */
export interface Database {
  prisma: PrismaClient;
  kind: DatabaseTarget["kind"];
  /** Runs a raw SQL script on one connection (migrations, tests). */
  withExecutor<T>(fn: (executor: SqlExecutor) => Promise<T>): Promise<T>;
  /** Throws when the database does not answer or migrations are pending. */
  checkReady(): Promise<void>;
  /**
   * The embedded database's archive, with no transaction half-written in it (pglite-backup.ts);
   * undefined on PostgreSQL, which pg_dump backs up.
   */
  backup: (() => Promise<BackupArchive>) | undefined;
  close(): Promise<void>;
}

/** A start-up failure with a message an administrator can act on (no stack needed). */
export class DatabaseStartupError extends Error {
  override name = "DatabaseStartupError";
}

function pgliteExecutor(client: PGlite): SqlExecutor {
  return {
    exec: async (sql) => {
      await client.exec(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) =>
      (await client.query<T>(sql, params as unknown[])).rows,
  };
}

function pgExecutor(client: pg.PoolClient): SqlExecutor {
  return {
    exec: async (sql) => {
      await client.query(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) =>
      (await client.query(sql, params)).rows as T[],
  };
}

function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "the configured address";
  }
}

/**
 * The embedded database's session. ANALYZE holds its whole row sample (300 rows per statistics
 * target) in PostgreSQL's memory, which on PGlite is WebAssembly memory that never shrinks: the
 * ANALYZEs after two 10,000-guest vCenter syncs grew it by 16 MB at the default target of 100,
 * by none at 10. Ten is plenty for the list's plans (few connections, ordered indexes).
 */
const PGLITE_SESSION = "SET default_statistics_target = 10";

async function openPglite(
  { dataDir, startFrom }: Extract<DatabaseTarget, { kind: "pglite" }>,
  onQuery?: QueryListener,
): Promise<Database> {
  const inMemory = dataDir.startsWith("memory://");
  if (startFrom && !inMemory) throw new Error("Only an in-memory database starts from an archive.");
  let releaseLock = () => {};
  try {
    if (!inMemory) releaseLock = acquireDataDirLock(dataDir);
  } catch (error) {
    throw new DatabaseStartupError((error as Error).message);
  }
  const dir = inMemory ? dataDir : path.join(dataDir, "pgdata");
  let client: PGlite;
  try {
    const options = { wasmModule: await pgliteModule() };
    if (!inMemory) await ensurePgliteDataDir(dir, options);
    const { PGlite } = await import("@electric-sql/pglite");
    client = new PGlite(
      dir,
      startFrom ? { ...options, loadDataDir: new Blob([startFrom]) } : options,
    );
    await client.waitReady;
    await client.exec(PGLITE_SESSION);
    yieldBeforeEachStatement(client);
  } catch (error) {
    releaseLock();
    throw new DatabaseStartupError(
      `Could not open the embedded database in ${dir}: ${(error as Error).message}`,
    );
  }
  const executor = pgliteExecutor(client);
  let queue = Promise.resolve();
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const factory = patchOnConnect(new PrismaPGlite(client), (adapter) => {
    patchPgliteErrorMapping(adapter);
    forgetLargeStatements(adapter);
  });
  const prisma = createClient(factory, onQuery);
  registerPgliteRawTransactions(prisma, client, onQuery);
  return {
    prisma,
    kind: "pglite",
    // PGlite is one connection: serialize raw scripts so transactions never interleave.
    withExecutor: <T>(fn: (e: SqlExecutor) => Promise<T>) => {
      const run = queue.then(() => fn(executor));
      queue = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
    checkReady: async () => {
      const pending = await pendingMigrations(executor);
      if (pending.length) throw new Error(`${pending.length} migration(s) not applied`);
    },
    backup: () => dumpPglite(client),
    close: async () => {
      await prisma.$disconnect();
      await client.close();
      releaseLock();
    },
  };
}

async function openPostgres(
  url: string,
  settings: PostgresPool,
  onQuery?: QueryListener,
): Promise<Database> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString: url,
    max: settings.size,
    connectionTimeoutMillis: settings.timeoutMs,
  });
  // An idle client that loses its server must not crash the process.
  pool.on("error", () => {});
  // No JIT compilation: the planner prices the list's address search (an EXISTS inside an OR)
  // at many times its cost, past jit_above_cost, and compiling took 20–80 ms of a 15 ms query.
  // Queued before anything else on the new session; a server without JIT ignores the failure.
  pool.on("connect", (client) => {
    client.query("SET jit = off").catch(() => {});
  });
  const withExecutor = async <T>(fn: (e: SqlExecutor) => Promise<T>) => {
    const client = await pool.connect();
    try {
      return await fn(pgExecutor(client));
    } finally {
      client.release();
    }
  };
  try {
    await withExecutor((e) => e.query("SELECT 1"));
  } catch (error) {
    await pool.end();
    throw new DatabaseStartupError(
      `Could not connect to PostgreSQL at ${describeUrl(url)}: ${(error as Error).message}`,
    );
  }
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const prisma = createClient(patchOnConnect(new PrismaPg(pool), forgetLargeStatements), onQuery);
  registerPgRawTransactions(prisma, pool, onQuery);
  return {
    prisma,
    kind: "postgres",
    withExecutor,
    checkReady: async () => {
      const pending = await withExecutor((e) => pendingMigrations(e));
      if (pending.length) throw new Error(`${pending.length} migration(s) not applied`);
    },
    backup: undefined,
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** Opens the database and applies pending migrations before anything else uses it. */
export async function openDatabase(
  target: DatabaseTarget,
  options: { onQuery?: QueryListener } = {},
): Promise<Database> {
  const db =
    target.kind === "pglite"
      ? await openPglite(target, options.onQuery)
      : await openPostgres(target.url, target.pool ?? DEFAULT_POSTGRES_POOL, options.onQuery);
  try {
    await db.withExecutor((executor) => applyMigrations(executor));
  } catch (error) {
    await db.close();
    throw new DatabaseStartupError(
      `Could not apply database migrations: ${(error as Error).message}`,
    );
  }
  return db;
}
