// The process as an administrator starts it: a wrong setting is a message, not a stack trace.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

function start(env: Record<string, string>) {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "main.ts")],
    {
      env: {
        PATH: process.env.PATH,
        HYPERLENS_DATA_DIR: mkdtempSync(path.join(tmpdir(), "hl-main-")),
        PORT: "0",
        ...env,
      },
      encoding: "utf8",
      timeout: 30_000,
    },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

describe("starting the server with a wrong setting", () => {
  it("names an invalid DATABASE_URL without a stack trace", () => {
    const { status, output } = start({ DATABASE_URL: "not a url" });
    expect(status).toBe(1);
    expect(output).toContain(
      "DATABASE_URL: must be a URL like postgresql://user@host:5432/database",
    );
    expect(output).not.toMatch(STACK_LINE);
  });

  it("names an unreachable PostgreSQL server without a stack trace", () => {
    const { status, output } = start({ DATABASE_URL: "postgresql://nobody@127.0.0.1:1/db" });
    expect(status).toBe(1);
    expect(output).toContain("Could not connect to PostgreSQL at 127.0.0.1:1/db");
    expect(output).not.toMatch(STACK_LINE);
  });

  it("names a malformed secret key without printing it", () => {
    const { status, output } = start({ HYPERLENS_SECRET_KEY: "hunter2-is-not-a-key" });
    expect(status).toBe(1);
    expect(output).toContain("HYPERLENS_SECRET_KEY must be a 32-byte key");
    expect(output).not.toContain("hunter2");
    expect(output).not.toMatch(STACK_LINE);
  });
});
