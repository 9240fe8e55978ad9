// Starts Hyperlens from a validated configuration: keys, database (migrated), services, server.
import { type Database, loadKeyring, openDatabase, SecretBox } from "@hyperlens/db";
import { createCredentialChanges } from "./auth/credential-changes.ts";
import { SetupTokens } from "./auth/setup-token.ts";
import type { Config } from "./config.ts";
import type { AppServices } from "./context.ts";
import { startDemo } from "./demo.ts";
import { startServer } from "./http/server.ts";
import { createLogger, type Logger } from "./logger.ts";
import { type AppMetrics, createMetrics } from "./metrics/metrics.ts";
import { hasAnyUser } from "./services/users.ts";
import { startAbandonedRunSweep } from "./syncs/abandoned-run-sweep.ts";
import { createSyncCoordinator } from "./syncs/coordinator.ts";
import { startFeedRetentionSweep } from "./syncs/feed-retention-sweep.ts";
import { recoverInterruptedSyncs } from "./syncs/lease.ts";
import {
  announceFeedAdvanced,
  connectRedisSyncEvents,
  createSyncEvents,
} from "./syncs/progress-events.ts";
import { createScheduler } from "./syncs/scheduler.ts";
import { startTracing } from "./telemetry/tracing.ts";
import { createWebhookDispatcher, type WebhookDispatcherOptions } from "./webhooks/dispatcher.ts";
import { wakeOnFeedAdvanced } from "./webhooks/wake.ts";

/** A running Hyperlens and how to stop it. */
export interface RunningApp {
  url: string;
  services: AppServices;
  /** The one-time token for creating the first administrator, when no user exists yet. */
  setupToken: string | undefined;
  close(): Promise<void>;
}

/**
 * What the services are built from besides the configuration. The server and the CLI take the
 * defaults; the test app hands in its throw-away database, fresh key and quiet metrics.
 */
export interface ServiceOptions {
  role?: string;
  /** Sees every SQL statement (crash tests). */
  onQuery?: (sql: string) => void;
  /** Opens the database; by default the configured one. */
  openDatabase?: () => Promise<Database>;
  /** Seals and opens secrets; by default with the configured keys. */
  secrets?: SecretBox;
  metrics?: AppMetrics;
  /** Webhook delivery timings and jitter draw (tests shorten and fix them). */
  webhooks?: Partial<
    Pick<WebhookDispatcherOptions, "schedule" | "pollMs" | "leaseMs" | "timeoutMs" | "random">
  >;
}

/** Builds the long-lived services. The caller closes them with {@link closeServices}. */
export async function createServices(
  config: Config,
  logger: Logger,
  options: ServiceOptions = {},
): Promise<AppServices> {
  const secrets =
    options.secrets ??
    new SecretBox(
      loadKeyring({
        key: config.secretKey,
        previousKeys: config.previousSecretKeys,
        dataDir: config.dataDir,
      }),
    );
  const events = config.redisUrl
    ? await connectRedisSyncEvents({
        url: config.redisUrl,
        prefix: config.redisPrefix,
        onError: (error) => logger.warn({ err: error }, "Redis connection problem"),
      })
    : createSyncEvents();
  const open =
    options.openDatabase ??
    (() => openDatabase(config.database, options.onQuery ? { onQuery: options.onQuery } : {}));
  let db: Database;
  try {
    db = await open();
  } catch (error) {
    await events.close();
    throw error;
  }
  const interrupted = await recoverInterruptedSyncs(
    db.prisma,
    db.kind === "pglite",
    announceFeedAdvanced(events),
  );
  if (interrupted)
    logger.warn({ runs: interrupted }, "Closed syncs a stopped process left running");
  const syncs = createSyncCoordinator({
    leaseTtlMs: config.syncLeaseMs,
    ...(options.role ? { role: options.role } : {}),
  });
  const targetPolicy = { allowLoopbackTargets: config.allowLoopbackTargets };
  return {
    db,
    prisma: db.prisma,
    secrets,
    logger,
    sessionPolicy: { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs },
    setupTokens: new SetupTokens(),
    events,
    credentialChanges: createCredentialChanges(events),
    syncs,
    manualSyncCooldownMs: config.manualSyncCooldownMs,
    feedPollMs: config.feedPollMs,
    targetPolicy,
    webhooks: createWebhookDispatcher({
      prisma: db.prisma,
      secrets,
      logger,
      policy: targetPolicy,
      holder: syncs.holder,
      pollMs: config.feedPollMs,
      ...options.webhooks,
    }),
    metrics: options.metrics ?? createMetrics(),
    tracing: await startTracing(config.tracing, logger),
    environmentProviders: config.identityProviders,
    publicUrl: config.publicUrl,
  };
}

/** Closes what {@link createServices} opened. */
export async function closeServices(services: AppServices): Promise<void> {
  await services.webhooks.stop();
  await services.tracing?.shutdown();
  await services.credentialChanges.close();
  await services.events.close();
  await services.db.close();
}

/** Starts the whole server: `main.ts` with the defaults, the test app with its test services. */
export async function startApp(
  config: Config,
  logger = createLogger(config.logLevel),
  options: ServiceOptions = {},
): Promise<RunningApp> {
  const services = await createServices(config, logger, options);
  if (config.allowLoopbackTargets) {
    logger.warn(
      { demo: config.isDemo },
      "Connections may point at loopback and link-local addresses (HYPERLENS_ALLOW_LOOPBACK_TARGETS or demo mode): labs only",
    );
  }
  try {
    const setupToken = (await hasAnyUser(services.prisma))
      ? undefined
      : services.setupTokens.issue();
    const demo = config.isDemo ? await startDemo(services) : undefined;
    const server = await startServer(services, config);
    const scheduler = config.isSchedulerOn
      ? createScheduler(services, {
          refreshMs: config.schedulerRefreshMs,
          maxJitterMs: config.syncJitterMs,
        })
      : undefined;
    const sweep = startAbandonedRunSweep(services, config.syncLeaseMs);
    const feedRetention = startFeedRetentionSweep(services, config.feedRetentionMs);
    services.webhooks.start();
    const webhookWaker = wakeOnFeedAdvanced(services.events, services.webhooks);
    let closing: Promise<void> | undefined;
    return {
      url: server.url,
      services,
      setupToken,
      // Stop taking work, let running syncs end (or stop them at their safe point), then close.
      close: () => {
        closing ??= (async () => {
          services.syncs.stopTakingSyncs();
          await scheduler?.stop();
          await sweep.stop();
          await feedRetention.stop();
          webhookWaker.stop();
          await services.webhooks.stop();
          await services.syncs.drain(config.shutdownGraceMs);
          await server.close();
          await demo?.close();
          await closeServices(services);
        })();
        return closing;
      },
    };
  } catch (error) {
    await closeServices(services);
    throw error;
  }
}
