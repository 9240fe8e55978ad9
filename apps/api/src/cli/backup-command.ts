// `hyperlens backup <file>` and `hyperlens restore <file>` for the embedded database. A running
// server owns its data directory (PGlite is one process), so the backup asks it over HTTP with an
// administrator's API token; with no server running the command holds the lock and reads the
// directory itself. HTTP rather than a socket in the data directory: it reuses token
// authentication and the audit log, and works from wherever the server is reachable (another
// container, a backup host) without sharing the volume.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  BackupError,
  backupDataDir,
  DatabaseStartupError,
  dataDirHolder,
  restoreDataDir,
} from "@hyperlens/db";
import type { Config } from "../config.ts";
import { BACKUP_PATH } from "../http/backup-route.ts";
import { USE_PG_DUMP } from "../services/database-backup.ts";

/** A backup or restore asked of a PostgreSQL install: exit code 2, with what to use instead. */
export class NotEmbeddedError extends Error {
  override name = "NotEmbeddedError";
}

/** Where `hyperlens backup` asks, and with which token. */
export interface BackupRequest {
  file: string;
  /** The server's address; default: this configuration's HOST and PORT. */
  url?: string | undefined;
  /** An administrator's API token holding every capability (HYPERLENS_TOKEN). */
  token?: string | undefined;
}

const KEY_NOTICE = (config: Config) =>
  "The archive holds the database only, not the secret key " +
  `(${config.secretKey ? "HYPERLENS_SECRET_KEY" : path.join(config.dataDir, "secret.key")}): ` +
  "back the key up separately — without it the stored connection secrets cannot be opened " +
  "after a restore.";

function localUrl(config: Config): string {
  const host = ["0.0.0.0", "::", ""].includes(config.host) ? "localhost" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

/** Writes the archive whole or not at all, readable by its owner only (it holds every hash). */
function writeArchive(file: string, archive: Uint8Array) {
  const partial = `${file}.partial`;
  try {
    writeFileSync(partial, archive, { mode: 0o600 });
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new BackupError(`Could not write ${file}: ${(error as Error).message}`);
  }
}

async function askServer(url: string, token: string | undefined): Promise<Uint8Array> {
  if (!token) {
    throw new BackupError(
      "Hyperlens is running on this data directory, so the backup is taken by the server: " +
        "give an administrator's API token holding every capability in HYPERLENS_TOKEN (or --token).",
    );
  }
  let response: Response;
  try {
    response = await fetch(new URL(BACKUP_PATH, url), {
      headers: { authorization: `Bearer ${token}` },
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new BackupError(
      `Could not reach Hyperlens at ${url}: ${cause ?? (error as Error).message}`,
    );
  }
  if (response.ok) return new Uint8Array(await response.arrayBuffer());
  const body = (await response.json().catch(() => ({}))) as { errors?: { message?: string }[] };
  const message = body.errors?.[0]?.message ?? response.statusText;
  if (response.status === 409) throw new NotEmbeddedError(message);
  throw new BackupError(`Hyperlens at ${url} refused the backup (${response.status}): ${message}`);
}

/** Takes the backup and writes `request.file`; prints where it came from and the key notice. */
export async function runBackupCommand(config: Config, request: BackupRequest): Promise<void> {
  let archive: Uint8Array;
  let source: string;
  if (request.url) {
    archive = await askServer(request.url, request.token);
    source = `from Hyperlens at ${request.url}`;
  } else {
    if (config.database.kind === "postgres") throw new NotEmbeddedError(USE_PG_DUMP);
    if (dataDirHolder(config.dataDir) !== undefined) {
      const url = localUrl(config);
      archive = await askServer(url, request.token);
      source = `from Hyperlens at ${url}`;
    } else {
      // No server: this process takes the lock (a server starting meanwhile is refused until done).
      archive = await backupDataDir(config.dataDir).catch((error: unknown) => {
        if (error instanceof BackupError) throw error;
        throw new DatabaseStartupError(
          `Could not read ${config.dataDir}: ${(error as Error).message}`,
        );
      });
      source = `from ${config.dataDir} (no server was running)`;
    }
  }
  writeArchive(request.file, archive);
  const megabytes = (archive.byteLength / 1e6).toFixed(1);
  console.log(`Wrote ${request.file} (${megabytes} MB) ${source}.`);
  console.log(KEY_NOTICE(config));
}

/** Restores `file` into the configured data directory, which must hold no database. */
export async function runRestoreCommand(config: Config, file: string): Promise<void> {
  if (config.database.kind === "postgres") {
    throw new NotEmbeddedError(
      "This Hyperlens uses PostgreSQL: restore a pg_dump archive with pg_restore " +
        '(docs/operations.md, "Backups and restore").',
    );
  }
  let archive: Uint8Array<ArrayBuffer>;
  try {
    archive = new Uint8Array(readFileSync(file));
  } catch (error) {
    throw new BackupError(`Could not read ${file}: ${(error as Error).message}`);
  }
  await restoreDataDir(config.dataDir, archive);
  console.log(
    `Restored ${file} into ${path.join(config.dataDir, "pgdata")}. ` +
      "Migrations of this release run when Hyperlens next starts on it.",
  );
  const hasKey = config.secretKey || existsSync(path.join(config.dataDir, "secret.key"));
  console.log(
    hasKey
      ? "Start Hyperlens with the secret key the backup was made with, or stored connection secrets cannot be opened."
      : `No secret key is configured: put the backed-up key in ${path.join(config.dataDir, "secret.key")} ` +
          "(mode 0600) or HYPERLENS_SECRET_KEY before starting, or stored connection secrets cannot be opened.",
  );
}
