export { dataDirHolder } from "./data-dir-lock.ts";
export {
  type Database,
  DatabaseStartupError,
  type DatabaseTarget,
  DEFAULT_POSTGRES_POOL,
  openDatabase,
  type PostgresPool,
} from "./database.ts";
export * from "./generated/prisma/client.ts";
export { escapeLikePattern } from "./like-pattern.ts";
export { applyMigrations, pendingMigrations, readMigrations, type SqlExecutor } from "./migrate.ts";
export {
  BACKUP_MEDIA_TYPE,
  type BackupArchive,
  BackupError,
  backupDataDir,
  restoreDataDir,
} from "./pglite-backup.ts";
export { type RawSql, rawQuery, rawTransaction } from "./raw-transaction.ts";
export { type RowsByIdReader, rowsByIdReader } from "./rows-by-id.ts";
export * from "./secrets.ts";
