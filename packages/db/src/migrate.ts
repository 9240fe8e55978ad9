// Applies the committed prisma/migrations/*/migration.sql files at start-up, recording them in
// Prisma's own _prisma_migrations table so `prisma migrate status` agrees. Runs in-process: the
// Prisma CLI takes seconds per call and needs adapter patches that have no place at runtime.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The few raw-SQL operations migrations need, on ONE connection (a transaction spans calls).
 * PGlite and a node-postgres client both provide them.
 */
export interface SqlExecutor {
  /** Runs a script of one or more statements (simple protocol). */
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** One committed migration folder: its name, its SQL and the SHA-256 Prisma records for it. */
export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** Where the committed migrations live; overridable for packaged installs. */
export function defaultMigrationsDir(): string {
  return (
    process.env.HYPERLENS_MIGRATIONS_DIR ??
    path.resolve(import.meta.dirname, "../../../prisma/migrations")
  );
}

/** Reads the migrations in the order Prisma applies them (folder names sort by UTC time). */
export function readMigrations(dir = defaultMigrationsDir()): Migration[] {
  if (!existsSync(dir)) throw new Error(`The migrations folder ${dir} does not exist.`);
  return readdirSync(dir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")),
    )
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// The same lock key Prisma's schema engine takes, so the CLI and replicas never migrate at once.
const MIGRATION_LOCK_KEY = 72707369;

interface AppliedRow {
  migration_name: string;
  checksum: string;
}

async function appliedMigrations(db: SqlExecutor): Promise<Map<string, string>> {
  const rows = await db.query<AppliedRow>(
    `SELECT migration_name, checksum FROM "_prisma_migrations"
     WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return new Map(rows.map((row) => [row.migration_name, row.checksum]));
}

/** Names of committed migrations the database has not applied yet (readiness uses this). */
export async function pendingMigrations(db: SqlExecutor, migrations = readMigrations()) {
  const tables = await db.query<{ exists: boolean }>(
    `SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`,
  );
  if (!tables[0]?.exists) return migrations.map((m) => m.name);
  const applied = await appliedMigrations(db);
  return migrations.filter((m) => !applied.has(m.name)).map((m) => m.name);
}

/**
 * The refusal to open a database that a newer release has migrated: its schema is one this build
 * was not written for, and an older build's own pending migrations could break it further.
 */
function refuseUnknownMigrations(applied: Map<string, string>, migrations: Migration[]): void {
  const known = new Set(migrations.map((m) => m.name));
  const unknown = [...applied.keys()].filter((name) => !known.has(name)).sort();
  if (!unknown.length) return;
  throw new Error(
    `This database was upgraded by a newer Hyperlens release: it has ${unknown.length} ` +
      `migration(s) this build does not know (${unknown.join(", ")}). Nothing was changed. ` +
      "Run that newer release (or a later one), or restore a backup taken before the upgrade " +
      "to go back to this one.",
  );
}

/**
 * Applies every pending migration, each in its own transaction. Refuses to start when an
 * applied migration's file was edited afterwards (the database would not match the schema), or
 * when the database holds migrations this build does not know (a newer release made it).
 */
export async function applyMigrations(db: SqlExecutor, migrations = readMigrations()) {
  await db.exec(MIGRATIONS_TABLE);
  await db.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    const applied = await appliedMigrations(db);
    // TRAP: docs/operations.md "Upgrades" — an older build started on a newer release's database
    // must stop before its first write; applying its own pending migrations there corrupts it.
    refuseUnknownMigrations(applied, migrations);
    const newlyApplied: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(
            `Migration ${migration.name} was changed after it was applied to this database. ` +
              "Restore the original file; schema changes need a new migration.",
          );
        }
        continue;
      }
      await db.exec("BEGIN");
      try {
        await db.exec(migration.sql);
        await db.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await db.exec("COMMIT");
      } catch (error) {
        await db.exec("ROLLBACK");
        throw error;
      }
      newlyApplied.push(migration.name);
    }
    return newlyApplied;
  } finally {
    await db.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  }
}
