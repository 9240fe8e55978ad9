// The test's side of the crash child: starts it, asks it things over IPC, kills it.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateSecretKeyText } from "@hyperlens/db";
import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import type { CrashMessage, CrashReplies, CrashRequest } from "./crash-protocol.ts";

const CHILD = path.join(import.meta.dirname, "crash-child.ts");

/** A running crash child. */
export interface CrashProcess {
  /** Sends a request; rejects if the child dies first. */
  request<R extends CrashRequest>(request: R): Promise<CrashReplies[R["cmd"]]>;
  /** SIGKILL, at once. */
  kill(): void;
  /** Resolves with the signal (or exit code) once the process is gone. */
  exited: Promise<string>;
  /** Lets the child close its database and exit on its own. */
  stop(): Promise<string>;
  output(): string;
}

/** Starts a child with exactly `env` (plus PATH) and waits until its database is open. */
export async function startCrashProcess(env: Record<string, string>): Promise<CrashProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", CHILD], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const waiting: { resolve: (value: unknown) => void; reject: (error: Error) => void }[] = [];
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => {
      const how = signal ?? `exit ${code}`;
      for (const w of waiting.splice(0)) w.reject(new Error(`the child ended (${how})`));
      resolve(how);
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.on("message", (message: CrashMessage) => {
      if (message.kind === "ready") return resolve();
      const next = waiting.shift();
      if (message.kind === "reply") next?.resolve(message.value);
      else {
        const error = new Error(message.message);
        if (next) next.reject(error);
        else reject(error);
      }
    });
    void exited.then((how) =>
      reject(new Error(`the child ended (${how}) before it was ready:\n${output}`)),
    );
  });
  await ready;
  return {
    request: <R extends CrashRequest>(request: R) =>
      new Promise<CrashReplies[R["cmd"]]>((resolve, reject) => {
        waiting.push({ resolve: (value) => resolve(value as CrashReplies[R["cmd"]]), reject });
        child.send(request);
      }),
    kill: () => {
      child.kill("SIGKILL");
    },
    exited,
    stop: () => {
      child.disconnect();
      return exited;
    },
    output: () => output,
  };
}

/**
 * The environment of a crash child on a fresh database of `target` (a PGlite data directory or a
 * throw-away PostgreSQL database), with the stand-ins' loopback allowed and every sync asked for
 * on purpose (no manual-sync cool-down). What it makes is closed by the pushed cleanups.
 */
export async function crashChildEnvironment(
  target: "pglite" | "postgres",
  leaseSeconds: number,
  cleanups: (() => Promise<void>)[],
): Promise<Record<string, string>> {
  let server: TestDatabase | undefined;
  let dataDir = "";
  if (target === "postgres") {
    server = await createTestDatabase();
    cleanups.push(() => server?.close() ?? Promise.resolve());
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), "hl-crash-"));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  }
  return {
    HYPERLENS_DATA_DIR: dataDir || "/nonexistent",
    DATABASE_URL: server?.url ?? "",
    HYPERLENS_SECRET_KEY: generateSecretKeyText(),
    HYPERLENS_SYNC_LEASE_SECONDS: String(leaseSeconds),
    HYPERLENS_LOG_LEVEL: "error",
    HYPERLENS_ALLOW_LOOPBACK_TARGETS: "1",
    HYPERLENS_MANUAL_SYNC_COOLDOWN_SECONDS: "0",
  };
}
