// Starts Hyperlens from a validated configuration: keys, database (migrated), services, server.
import { loadKeyring, openDatabase, SecretBox } from "@hyperlens/db";
import { SetupTokens } from "./auth/setup-token.ts";
import type { Config } from "./config.ts";
import type { AppServices } from "./context.ts";
import { startDemo } from "./demo.ts";
import { startServer } from "./http/server.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createSyncEvents } from "./services/sync-events.ts";
import { hasAnyUser } from "./services/users.ts";

/** A running Hyperlens and how to stop it. */
export interface RunningApp {
  url: string;
  services: AppServices;
  /** The one-time token for creating the first administrator, when no user exists yet. */
  setupToken: string | undefined;
  close(): Promise<void>;
}

/** Builds the long-lived services. The caller closes `db`. */
export async function createServices(config: Config, logger: Logger): Promise<AppServices> {
  const secrets = new SecretBox(
    loadKeyring({
      key: config.secretKey,
      previousKeys: config.previousSecretKeys,
      dataDir: config.dataDir,
    }),
  );
  const db = await openDatabase(config.database);
  return {
    db,
    prisma: db.prisma,
    secrets,
    logger,
    sessionPolicy: { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs },
    setupTokens: new SetupTokens(),
    events: createSyncEvents(),
  };
}

/** Starts the whole server. */
export async function startApp(
  config: Config,
  logger = createLogger(config.logLevel),
): Promise<RunningApp> {
  const services = await createServices(config, logger);
  try {
    const setupToken = (await hasAnyUser(services.prisma))
      ? undefined
      : services.setupTokens.issue();
    const demo = config.isDemo ? await startDemo(services) : undefined;
    const server = await startServer(services, config);
    return {
      url: server.url,
      services,
      setupToken,
      close: async () => {
        await server.close();
        await demo?.close();
        await services.db.close();
      },
    };
  } catch (error) {
    await services.db.close();
    throw error;
  }
}
