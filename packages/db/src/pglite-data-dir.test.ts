// A first start killed (SIGKILL) while PGlite initialises its data directory must not leave a
// directory that can never be opened again (issue 8, crash safety).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./database.ts";

const DATABASE_TS = path.join(import.meta.dirname, "database.ts");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a PGlite data directory", () => {
  it("opens after the first start was killed during initdb", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hl-initdb-kill-"));
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { openDatabase } = await import(${JSON.stringify(DATABASE_TS)});
         await openDatabase({ kind: "pglite", dataDir: ${JSON.stringify(dataDir)} });
         console.log("opened");`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    // initdb writes PG_VERSION first and the rest over the next seconds: kill right after it.
    const markers = ["pgdata", "pgdata.initializing"].map((d) =>
      path.join(dataDir, d, "PG_VERSION"),
    );
    const deadline = Date.now() + 60_000;
    while (!markers.some((m) => existsSync(m)) && !output && Date.now() < deadline) await sleep(10);
    child.kill("SIGKILL");
    await exited;
    expect(output, "the child finished initdb before it could be killed").toBe("");

    const db = await openDatabase({ kind: "pglite", dataDir });
    try {
      await expect(db.checkReady()).resolves.toBeUndefined();
      expect(await db.prisma.connection.count()).toBe(0);
    } finally {
      await db.close();
    }
  }, 120_000);
});
