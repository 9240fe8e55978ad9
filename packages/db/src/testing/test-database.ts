// A throw-away database per test file: PGlite in memory by default, or — when DATABASE_URL is
// set — a fresh database on that PostgreSQL server, dropped again at the end.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Database, openDatabase, type QueryListener } from "../database.ts";
import { readMigrations } from "../migrate.ts";
import type { BackupArchive } from "../pglite-backup.ts";

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

let migratedArchive: Promise<BackupArchive> | undefined;

/**
 * An archive of an empty, migrated embedded database, made once per set of migrations and PGlite
 * release and kept in the temporary directory: starting a test's database from it skips initdb
 * and the migrations, most of the second each test database took (each test file is a process).
 */
function migratedPgliteArchive(): Promise<BackupArchive> {
  migratedArchive ??= (async () => {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    const pglite = JSON.parse(
      readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8"),
    ) as { version: string };
    const key = createHash("sha256")
      .update(pglite.version)
      .update(
        readMigrations()
          .map((m) => `${m.name}:${m.checksum}`)
          .join("\n"),
      )
      .digest("hex")
      .slice(0, 16);
    const file = path.join(tmpdir(), `hyperlens-test-database-${key}.tgz`);
    try {
      return new Uint8Array(readFileSync(file));
    } catch {
      const db = await openDatabase({ kind: "pglite", dataDir: "memory://" });
      const archive = await (db.backup as NonNullable<Database["backup"]>)();
      await db.close();
      // Written beside and renamed, so a file another test process is writing is never read half.
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, archive);
      renameSync(partial, file);
      return archive;
    }
  })();
  return migratedArchive;
}

/** Opens a new empty database for a test; call `close()` in afterAll. */
export async function createTestDatabase(
  options: { onQuery?: QueryListener } = {},
): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const target = { kind: "pglite", dataDir: "memory://" } as const;
    const startFrom = await migratedPgliteArchive();
    return { ...(await openDatabase({ ...target, startFrom }, options)), target };
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
