// The `hyperlens` command as an operator runs it: a child process on a data directory of its own.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateSecretKeyText } from "@hyperlens/db";

const MAIN = path.join(import.meta.dirname, "../cli/main.ts");

/** What one run of the command printed (stdout and stderr together) and its exit status. */
export interface CliRun {
  status: number | null;
  out: string;
}

/**
 * Runs `hyperlens <args>` with only PATH and `env` in its environment and `input` on stdin.
 * Asynchronous on purpose: a stand-in in the test's own process must keep answering.
 */
export function runCli(args: string[], env: Record<string, string>, input = ""): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (out += chunk));
    child.stdin.end(input);
    child.on("close", (status) => resolve({ status, out }));
  });
}

/**
 * The environment of a server and command on a new PGlite data directory (at `dataDir`, or a new
 * temporary one) with a fresh secret key, allowed to reach the stand-ins on loopback.
 */
export function cliEnvironment(
  dataDir = mkdtempSync(path.join(tmpdir(), "hl-cli-")),
): Record<string, string> {
  return {
    HYPERLENS_DATA_DIR: dataDir,
    HYPERLENS_SECRET_KEY: generateSecretKeyText(),
    // The stand-ins listen on loopback, which the server and the command refuse by default.
    HYPERLENS_ALLOW_LOOPBACK_TARGETS: "1",
  };
}
