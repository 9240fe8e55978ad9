// Starts the real API in demo mode as a child process on a free port with a throw-away data
// directory, and reads its address and one-time setup token from what it prints.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A running API with its page URL (on localhost, so the __Host- cookie is accepted). */
export interface RunningApi {
  url: string;
  setupToken: string;
  stop: () => Promise<void>;
}

const root = path.resolve(import.meta.dirname, "..");

/**
 * Starts the API and waits until it prints its address and setup token. `port` and `env` set a
 * fixed port and more variables (single sign-on needs its public address before it starts).
 */
export async function startApi(
  options: { port?: number; env?: Record<string, string> } = {},
): Promise<RunningApi> {
  // The e2e run always uses the embedded database, whatever the surrounding test run uses.
  const { DATABASE_URL: _, ...inherited } = process.env;
  const dataDir = mkdtempSync(path.join(tmpdir(), "hyperlens-e2e-"));
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "apps/api/src/main.ts")],
    {
      cwd: root,
      env: {
        ...inherited,
        PORT: String(options.port ?? 0),
        HOST: "127.0.0.1",
        HYPERLENS_DEMO: "1",
        HYPERLENS_SCHEDULER: "0",
        HYPERLENS_DATA_DIR: dataDir,
        HYPERLENS_SECRET_KEY: randomBytes(32).toString("base64"),
        HYPERLENS_LOG_LEVEL: "warn",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const ready = new Promise<{ url: string; setupToken: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`API did not start in 180 s:\n${output}`)),
      // A shared machine running several test runs at once can take over 90 s to compile and start it.
      180_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /running at (http:\/\/[^\s]+)/.exec(output)?.[1];
      const token = /Setup token:\s+(setup_[\w-]+)/.exec(output)?.[1];
      if (url && token) {
        clearTimeout(timer);
        resolve({ url, setupToken: token });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`API exited with ${code}:\n${output}`));
    });
  });
  let started: { url: string; setupToken: string };
  try {
    started = await ready;
  } catch (error) {
    // A start that timed out leaves a server that may still come up: never leave it running.
    child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const port = new URL(started.url).port;
  return {
    url: `http://localhost:${port}`,
    setupToken: started.setupToken,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The first administrator the e2e runs create through the setup token. */
export const FIRST_ADMIN = { username: "admin", password: "correct horse battery staple" };

/** Creates the first administrator, so the app shows the sign-in page rather than setup. */
export async function completeSetup(api: RunningApi): Promise<void> {
  const response = await fetch(`${api.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      query:
        "mutation($t: String!, $u: String!, $p: String!) { completeSetup(setupToken: $t, username: $u, password: $p) { __typename } }",
      variables: { t: api.setupToken, u: FIRST_ADMIN.username, p: FIRST_ADMIN.password },
    }),
  });
  if (response.status !== 200) throw new Error(`setup answered ${response.status}`);
}
