import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./database.ts";
import { PGLITE_SETTINGS, rewriteSettings } from "./pglite-module.ts";

describe("the embedded database's memory settings", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ kind: "pglite", dataDir: "memory://" });
  });
  afterAll(async () => {
    await db?.close();
  });

  it("runs PGlite with a 16 MB buffer pool and 1 MB of WAL buffers, not the compiled-in 128 MB and 4 MB", async () => {
    const rows = await db.withExecutor((e) =>
      e.query<{ name: string; value: string }>(
        `SELECT name, current_setting(name) AS value FROM pg_settings
         WHERE name IN ('shared_buffers', 'wal_buffers') ORDER BY name`,
      ),
    );
    expect(rows).toEqual([
      { name: "shared_buffers", value: "16MB" },
      { name: "wal_buffers", value: "1MB" },
    ]);
  });

  it("rewrites a compiled-in setting in place, padding with NULs so the length stays the same", () => {
    const binary = Buffer.from("\0-c\0shared_buffers=128MB\0wal_buffers=4MB\0work_mem=4MB\0");
    const rewritten = Buffer.from(rewriteSettings(binary));
    expect(rewritten.length).toBe(binary.length);
    expect(rewritten.toString("latin1")).toBe(
      "\0-c\0shared_buffers=16MB\0\0wal_buffers=1MB\0work_mem=4MB\0",
    );
  });

  it("leaves a binary alone when a setting is missing or found twice (another PGlite build)", () => {
    const [shared] = PGLITE_SETTINGS;
    const twice = Buffer.from(`${shared.compiled}\0${shared.compiled}\0`);
    expect(Buffer.from(rewriteSettings(twice)).equals(twice)).toBe(true);
    const other = Buffer.from("shared_buffers=256MB\0");
    expect(Buffer.from(rewriteSettings(other)).equals(other)).toBe(true);
  });
});
