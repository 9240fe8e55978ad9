// Starts a real Hyperlens server on a throw-away database for a test file.

import { generateSecretKeyText, loadKeyring, SecretBox } from "@hyperlens/db";
import {
  createLastingTestDatabase,
  createTestDatabase,
  type LastingTestDatabase,
  type TestDatabase,
} from "@hyperlens/db/testing";
import { type Capability, DEFAULT_CAPABILITIES } from "@hyperlens/shared";
import { createServices, type ServiceOptions, startApp } from "../app.ts";
import { type Config, loadConfig } from "../config.ts";
import type { AppServices } from "../context.ts";
import { createLogger } from "../logger.ts";
import { createMetrics } from "../metrics/metrics.ts";
import { createUser } from "../services/users.ts";
import { captureLogLines, captureResponseBody, registerSecret } from "./secret-registry.ts";

export interface GraphqlResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
}

/** A running test server, its services, and helpers to talk to it as a client would. */
export interface TestApp {
  url: string;
  services: AppServices;
  logLines: string[];
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GraphqlResponse<T>>;
  /** Creates a user and returns a Cookie header for a signed-in session. */
  signedInAs(
    username: string,
    options?: { isAdmin?: boolean; capabilities?: Capability[] },
  ): Promise<string>;
  close(): Promise<void>;
}

export const TEST_PASSWORD = "correct horse battery staple";
registerSecret(TEST_PASSWORD);

/**
 * The server's configuration for tests. Manual syncs have no cool-down here, since most tests
 * sync one connection several times; a test of the cool-down sets `manualSyncCooldownMs`. The
 * scheduler is off: a test syncs when it says so (scheduler.test drives one itself).
 */
export function testConfig(): Config {
  // The stand-ins listen on loopback, which a server refuses by default: tests allow it.
  return {
    ...loadConfig({ NODE_ENV: "test", HYPERLENS_ALLOW_LOOPBACK_TARGETS: "1" }),
    manualSyncCooldownMs: 0,
    isSchedulerOn: false,
  };
}

/**
 * A database and secret key that outlive one test server, for restart tests: start the app on it
 * ({@link TestAppOptions.lasting}), close it, start it again; `drop()` in afterAll.
 */
export interface LastingDatabase {
  database: LastingTestDatabase;
  secretKey: string;
  drop(): Promise<void>;
}

export async function createLastingDatabase(): Promise<LastingDatabase> {
  const database = await createLastingTestDatabase();
  return { database, secretKey: generateSecretKeyText(), drop: () => database.drop() };
}

/** How a test app is built besides its configuration. */
export interface TestAppOptions {
  onQuery?: (sql: string) => void;
  /** Start on this database and key instead of fresh ones; closing the app keeps them. */
  lasting?: LastingDatabase;
  /** Webhook delivery timings (retries in milliseconds, a fixed jitter draw). */
  webhooks?: ServiceOptions["webhooks"];
  /** The server's log level (default debug: every line a test might look for). */
  logLevel?: "debug" | "info";
}

/**
 * What the app is built from in a test: a throw-away database, a fresh key whose every sealed
 * secret joins the leak check, log lines collected in memory and metrics without process ones.
 */
function testDependencies(options: TestAppOptions) {
  const logLines: string[] = [];
  captureLogLines(logLines);
  const { lasting } = options;
  const secrets = new SecretBox(
    loadKeyring({ key: lasting?.secretKey ?? generateSecretKeyText(), dataDir: "/nonexistent" }),
  );
  const seal = secrets.seal.bind(secrets);
  secrets.seal = (plaintext, connectionId) => {
    registerSecret(plaintext);
    return seal(plaintext, connectionId);
  };
  let opened: TestDatabase | undefined;
  const serviceOptions: ServiceOptions = {
    openDatabase: async () => {
      const db = await (lasting ? lasting.database.open(options) : createTestDatabase(options));
      // A test may close the database itself (to see the server without one); the app's own
      // close then finds it closed rather than closing it twice.
      let closing: Promise<void> | undefined;
      opened = { ...db, close: () => (closing ??= db.close()) };
      return opened;
    },
    secrets,
    metrics: createMetrics({ withProcessMetrics: false }),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
  };
  const database = (): TestDatabase => {
    if (!opened) throw new Error("the test database is not open yet");
    return opened;
  };
  return {
    logLines,
    logger: createLogger(options.logLevel ?? "debug", (line) => logLines.push(line)),
    serviceOptions,
    database,
  };
}

/** The app's services (built as the server builds them) on a throw-away database. */
export async function createTestServices(
  config: Config = testConfig(),
  options: { onQuery?: (sql: string) => void } = {},
): Promise<{ db: TestDatabase; services: AppServices; logLines: string[] }> {
  const { logLines, logger, serviceOptions, database } = testDependencies(options);
  const services = await createServices(config, logger, serviceOptions);
  return { db: database(), services, logLines };
}

/** The whole server, started by the same {@link startApp} as `main.ts`, on test dependencies. */
export async function startTestApp(
  overrides: Partial<Config> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const config: Config = {
    ...testConfig(),
    host: "127.0.0.1",
    port: 0,
    ...overrides,
  };
  const { logLines, logger, serviceOptions, database } = testDependencies(options);
  const server = await startApp(config, logger, serviceOptions);
  const { services } = server;
  const db = database();
  const graphql = async <T>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ) => {
    const res = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ query, variables }),
    });
    const text = await res.text();
    captureResponseBody(text);
    return {
      status: res.status,
      headers: res.headers,
      body: JSON.parse(text),
    } as GraphqlResponse<T>;
  };
  return {
    url: server.url,
    services,
    logLines,
    graphql,
    signedInAs: async (username, options = {}) => {
      await createUser(
        db.prisma,
        {
          username,
          password: TEST_PASSWORD,
          isAdmin: options.isAdmin ?? false,
          capabilities: options.capabilities ?? DEFAULT_CAPABILITIES,
        },
        null,
      );
      const res = await graphql(
        "mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { __typename } }",
        { u: username, p: TEST_PASSWORD },
      );
      const cookie = res.headers.get("set-cookie")?.split(";")[0];
      if (!cookie) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
      return cookie;
    },
    close: () => server.close(),
  };
}

/** {@link startTestApp} with an administrator signed in: the app, and the admin's Cookie header. */
export async function startTestAppAsAdmin(
  overrides: Partial<Config> = {},
): Promise<{ app: TestApp; admin: string }> {
  const app = await startTestApp(overrides);
  return { app, admin: await app.signedInAs("admin", { isAdmin: true }) };
}
