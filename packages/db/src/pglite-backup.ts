// Backups of the embedded database: PGlite's own archive of its data directory (a gzipped tar of
// pgdata/), taken by the process that owns the directory — the running server, or the CLI when no
// server holds the lock — and restored only into a data directory that holds no database.
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { acquireDataDirLock } from "./data-dir-lock.ts";
import { pgliteModule } from "./pglite-module.ts";

/** The media type of a backup archive (PGlite's gzipped tar). */
export const BACKUP_MEDIA_TYPE = "application/gzip";

/** An archive of the embedded database's data directory, as {@link dumpPglite} makes it. */
export type BackupArchive = Uint8Array<ArrayBuffer>;

/** Where a restore unpacks the archive before putting it in place as pgdata/. */
const RESTORE_STAGING = "pgdata.restoring";

/**
 * What may already be in a data directory a backup is restored into: the lock, the key (restored
 * first from its own backup) and a restore's staging directory a killed restore left behind.
 */
const RESTORABLE_BESIDE = new Set(["hyperlens.pid", "secret.key", RESTORE_STAGING]);

/** A backup or restore that cannot be done as asked; the message says what to do instead. */
export class BackupError extends Error {
  override name = "BackupError";
}

/**
 * The archive of `client`'s data directory with no transaction half-written in it. Every PGlite
 * statement and transaction (Prisma's and the raw ones) takes the instance's transaction lock, so
 * the archive is taken inside a transaction of its own: nothing else runs meanwhile. CHECKPOINT
 * first writes every page the buffer pool holds to the files the archive copies.
 */
export async function dumpPglite(client: PGlite): Promise<BackupArchive> {
  // TRAP: docs/operations.md "Embedded database" — a copy taken while a sync's transaction is half
  // written would restore whatever the files held at that instant.
  return client.transaction(async (tx) => {
    await tx.exec("CHECKPOINT");
    const archive = await client.dumpDataDir("gzip");
    return new Uint8Array(await archive.arrayBuffer());
  });
}

async function openPgliteDir(dir: string, options: { loadDataDir?: Blob } = {}): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  const client = new PGlite(dir, { wasmModule: await pgliteModule(), ...options });
  await client.waitReady;
  return client;
}

function takeLock(dataDir: string): () => void {
  try {
    return acquireDataDirLock(dataDir);
  } catch (error) {
    throw new BackupError((error as Error).message);
  }
}

/**
 * Archives the database in `dataDir` while no server runs on it (this process takes the
 * data-directory lock; a running server refuses it). Applies no migration: the archive is the
 * database as it is.
 */
export async function backupDataDir(dataDir: string): Promise<BackupArchive> {
  const release = takeLock(dataDir);
  try {
    const dir = path.join(dataDir, "pgdata");
    if (!existsSync(path.join(dir, "PG_VERSION"))) {
      throw new BackupError(`There is no embedded database in ${dataDir} to back up.`);
    }
    const client = await openPgliteDir(dir);
    try {
      return await dumpPglite(client);
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
}

/**
 * Restores an archive made by {@link dumpPglite} into `dataDir`, which must hold no database (only
 * its key file may be there already). The database is unpacked and opened in a staging directory
 * and put in place whole; migrations of this release run when the server next starts on it.
 */
export async function restoreDataDir(dataDir: string, archive: BackupArchive): Promise<void> {
  const release = takeLock(dataDir);
  try {
    const present = readdirSync(dataDir).filter((name) => !RESTORABLE_BESIDE.has(name));
    // TRAP: docs/operations.md "Embedded database" — a restore never writes over a database.
    if (present.length) {
      throw new BackupError(
        `The data directory ${dataDir} is not empty (it holds ${present.join(", ")}): restore ` +
          "only into an empty or new directory. Nothing was changed.",
      );
    }
    const dir = path.join(dataDir, "pgdata");
    const staging = path.join(dataDir, RESTORE_STAGING);
    rmSync(staging, { recursive: true, force: true });
    try {
      // PGlite unpacks by media type: a gzipped archive (ours), or a plain tar (dumpDataDir "none").
      const isGzip = archive[0] === 0x1f && archive[1] === 0x8b;
      const blob = new Blob([archive], { type: isGzip ? BACKUP_MEDIA_TYPE : "application/x-tar" });
      const client = await openPgliteDir(staging, { loadDataDir: blob });
      await client.close();
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw new BackupError(
        `The file is not a Hyperlens backup PGlite can open: ${(error as Error).message}`,
      );
    }
    renameSync(staging, dir);
  } finally {
    release();
  }
}
