// Bulk writes and the list's hot read go to the driver, not through Prisma: Prisma's query compiler
// serialises every raw statement with its parameters to JSON and parses the plan back, about 0.2 s
// per megabyte-sized jsonb parameter — a fifth of a 10,000-guest first sync's write time on PGlite.
// The driver behind each PrismaClient that openDatabase makes runs the same SQL directly.
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import type { PrismaClient } from "./generated/prisma/client.ts";

/** Raw SQL with positional parameters; a PrismaClient and a raw transaction both offer it. */
export interface RawSql {
  /** Runs a statement; returns the rows it affected. */
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  /** Runs a statement; returns its rows as objects keyed by column name. */
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

type RawTransactionRunner = <T>(fn: (sql: RawSql) => Promise<T>) => Promise<T>;

/** Told each statement's SQL once it has run, as Prisma's query events are (tests count them). */
type StatementListener = (sql: string) => void;

type Run = (query: string, values: unknown[]) => Promise<{ count: number; rows: unknown[] }>;

/** How a client's driver runs one transaction, and one statement on its own. */
interface Driver {
  transaction: RawTransactionRunner;
  statement: Run;
}

const drivers = new WeakMap<PrismaClient, Driver>();

function rawSql(run: Run, onStatement: StatementListener): RawSql {
  const observed = async (query: string, values: unknown[]) => {
    const result = await run(query, values);
    onStatement(query);
    return result;
  };
  return {
    $executeRawUnsafe: async (query, ...values) => (await observed(query, values)).count,
    $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) =>
      (await observed(query, values)).rows as T,
  };
}

/** Runs raw transactions of `prisma` on its PGlite instance (the adapter's own locks apply). */
export function registerPgliteRawTransactions(
  prisma: PrismaClient,
  client: PGlite,
  onStatement: StatementListener = () => {},
): void {
  // PGlite's own lock makes a statement wait for a transaction in progress.
  const statement: Run = async (query, values) => {
    const { affectedRows, rows } = await client.query(query, values);
    onStatement(query);
    return { count: affectedRows ?? 0, rows };
  };
  const transaction: RawTransactionRunner = async (fn) => {
    const result = await client.transaction((tx) => {
      onStatement("BEGIN");
      return fn(
        rawSql(async (query, values) => {
          const { affectedRows, rows } = await tx.query(query, values);
          return { count: affectedRows ?? 0, rows };
        }, onStatement),
      );
    });
    onStatement("COMMIT");
    return result;
  };
  drivers.set(prisma, { transaction, statement });
}

/** Runs raw transactions of `prisma` on a connection of its node-postgres pool. */
export function registerPgRawTransactions(
  prisma: PrismaClient,
  pool: pg.Pool,
  onStatement: StatementListener = () => {},
): void {
  const statement: Run = async (query, values) => {
    const { rowCount, rows } = await pool.query(query, values);
    onStatement(query);
    return { count: rowCount ?? 0, rows };
  };
  const transaction: RawTransactionRunner = async (fn) => {
    const client = await pool.connect();
    const sql = rawSql(async (query, values) => {
      const { rowCount, rows } = await client.query(query, values);
      return { count: rowCount ?? 0, rows };
    }, onStatement);
    let isBroken = false;
    try {
      await sql.$executeRawUnsafe("BEGIN");
      const result = await fn(sql);
      await sql.$executeRawUnsafe("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {
        isBroken = true;
      });
      throw error;
    } finally {
      // A connection that could not roll back is closed rather than handed to the next caller.
      client.release(isBroken);
    }
  };
  drivers.set(prisma, { transaction, statement });
}

function driverOf(prisma: PrismaClient): Driver {
  const driver = drivers.get(prisma);
  if (!driver) throw new Error("raw SQL: this PrismaClient was not made by openDatabase");
  return driver;
}

/**
 * Runs `fn` in one transaction on the driver of `prisma`, bypassing Prisma: committed when `fn`
 * resolves, rolled back when it throws. `prisma` must come from openDatabase.
 */
export async function rawTransaction<T>(
  prisma: PrismaClient,
  fn: (sql: RawSql) => Promise<T>,
): Promise<T> {
  return driverOf(prisma).transaction(fn);
}

/** Runs one statement on the driver of `prisma`, bypassing Prisma, and returns its rows. */
export async function rawQuery<T>(
  prisma: PrismaClient,
  query: string,
  values: unknown[] = [],
): Promise<T[]> {
  return (await driverOf(prisma).statement(query, values)).rows as T[];
}
