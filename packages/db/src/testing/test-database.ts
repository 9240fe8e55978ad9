// A throw-away database per test file: PGlite in memory by default, or — when DATABASE_URL is
// set — a fresh database on that PostgreSQL server, dropped again at the end.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Database, openDatabase, type QueryListener } from "../database.ts";

/** A migrated, empty database for one test file, and how to throw it away. */
export interface TestDatabase extends Database {
  /** The URL tests can hand to a child process (postgres only). */
  url?: string;
  /** What the database was opened with, to reopen it (restart tests). */
  target: Parameters<typeof openDatabase>[0];
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new database on a PostgreSQL server, not yet opened or migrated, and how to drop it. */
export interface EmptyPostgresDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database on the server at `serverUrl` (the DATABASE_URL of tests): for a test
 * that fills it first, e.g. restores an older release's dump and lets start-up migrate it.
 */
export async function createEmptyPostgresDatabase(
  serverUrl: string,
): Promise<EmptyPostgresDatabase> {
  const name = `hyperlens_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  return {
    url: withDatabase(serverUrl, name),
    drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Opens a new empty database for a test; call `close()` in afterAll. */
export async function createTestDatabase(
  options: { onQuery?: QueryListener } = {},
): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const target = { kind: "pglite", dataDir: "memory://" } as const;
    return { ...(await openDatabase(target, options)), target };
  }
  const empty = await createEmptyPostgresDatabase(serverUrl);
  const target = { kind: "postgres", url: empty.url } as const;
  const db = await openDatabase(target, options);
  return {
    ...db,
    url: empty.url,
    target,
    close: async () => {
      await db.close();
      await empty.drop();
    },
  };
}

/**
 * A throw-away database that outlives the servers opened on it, for restart tests: each `open()`
 * is one server's connection to it (closing that keeps the data), `drop()` throws it away. PGlite
 * in a temporary data directory, or — when DATABASE_URL is set — a fresh PostgreSQL database.
 */
export interface LastingTestDatabase {
  open(options?: { onQuery?: QueryListener }): Promise<TestDatabase>;
  drop(): Promise<void>;
}

export async function createLastingTestDatabase(): Promise<LastingTestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hl-lasting-"));
    const target = { kind: "pglite", dataDir } as const;
    return {
      open: async (options = {}) => ({ ...(await openDatabase(target, options)), target }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const empty = await createEmptyPostgresDatabase(serverUrl);
  const target = { kind: "postgres", url: empty.url } as const;
  return {
    open: async (options = {}) => ({
      ...(await openDatabase(target, options)),
      url: empty.url,
      target,
    }),
    drop: () => empty.drop(),
  };
}
