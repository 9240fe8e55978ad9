// The embedded database's archive is taken between transactions, never inside one, and a restore
// never writes over a database (docs/operations.md, "Embedded database").
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./database.ts";
import { BackupError, backupDataDir, restoreDataDir } from "./pglite-backup.ts";
import { rawQuery, rawTransaction } from "./raw-transaction.ts";
import { generateSecretKeyText, keyFilePath } from "./secrets.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "hl-pglite-backup-"));

/** Opens `dataDir`, hands its database to `fn`, closes it. */
async function withDatabase<T>(dataDir: string, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase({ kind: "pglite", dataDir });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const usernames = (db: Database) =>
  rawQuery<{ username: string }>(db.prisma, "SELECT username FROM users ORDER BY username").then(
    (rows) => rows.map((row) => row.username),
  );

describe("a backup of the embedded database", () => {
  let db: Database;

  beforeAll(async () => {
    db = await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "live") });
  });
  afterAll(async () => db?.close());

  it("asked for while a transaction is half written, waits for its commit and holds all of it", async () => {
    let releaseTransaction = () => {};
    const held = new Promise<void>((resolve) => (releaseTransaction = resolve));
    let wasCommitted = false;
    let signalFirstHalf = () => {};
    const firstHalfWritten = new Promise<void>((resolve) => (signalFirstHalf = resolve));
    const transaction = rawTransaction(db.prisma, async (sql) => {
      await sql.$executeRawUnsafe(
        `INSERT INTO users (id, username, "passwordHash", capabilities, "updatedAt")
         VALUES (gen_random_uuid(), 'first-half', 'x', '{}', now())`,
      );
      signalFirstHalf();
      await held;
      await sql.$executeRawUnsafe(
        `INSERT INTO users (id, username, "passwordHash", capabilities, "updatedAt")
         VALUES (gen_random_uuid(), 'second-half', 'x', '{}', now())`,
      );
    }).then(() => {
      wasCommitted = true;
    });
    await firstHalfWritten;
    const backup = db.backup?.().then((archive) => ({ archive, wasCommitted }));
    setTimeout(releaseTransaction, 200);
    const taken = await backup;
    await transaction;
    expect(taken?.wasCommitted).toBe(true);

    const restoredDir = path.join(scratch, "restored");
    await restoreDataDir(restoredDir, taken?.archive ?? new Uint8Array());
    await withDatabase(restoredDir, async (restored) => {
      expect(await usernames(restored)).toEqual(["first-half", "second-half"]);
    });
  });

  it("holds the database only: never the data directory's secret key file", async () => {
    const dataDir = path.join(scratch, "with-key");
    await withDatabase(dataDir, async () => {});
    const key = generateSecretKeyText();
    writeFileSync(keyFilePath(dataDir), key, { mode: 0o600 });
    const tar = gunzipSync(await backupDataDir(dataDir));
    expect(tar.includes(Buffer.from("PG_VERSION"))).toBe(true);
    expect(tar.includes(Buffer.from("secret.key"))).toBe(false);
    expect(tar.includes(Buffer.from(key))).toBe(false);
  });

  it("is restored only into a directory that holds no database", async () => {
    const archive = (await db.backup?.()) ?? new Uint8Array();
    const target = path.join(scratch, "restored-twice");
    await restoreDataDir(target, archive);
    await expect(restoreDataDir(target, archive)).rejects.toThrow(BackupError);
    await expect(restoreDataDir(target, archive)).rejects.toThrow(
      /is not empty \(it holds pgdata\)/,
    );
    expect(readdirSync(target)).toEqual(["pgdata"]);
  });
});
