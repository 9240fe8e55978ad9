import type { Database, PrismaClient, SecretBox } from "@hyperlens/db";
import type { TargetAddressPolicy } from "@hyperlens/hyper-http";
import type { CredentialChanges } from "./auth/credential-changes.ts";
import type { SessionPolicy } from "./auth/sessions.ts";
import type { SetupTokens } from "./auth/setup-token.ts";
import type { Viewer } from "./auth/viewer.ts";
import type { IdentityProviderConfig } from "./identity/provider-config.ts";
import type { Logger } from "./logger.ts";
import type { AppMetrics } from "./metrics/metrics.ts";
import type { SyncCoordinator } from "./syncs/coordinator.ts";
import type { SyncEvents } from "./syncs/progress-events.ts";
import type { Tracing } from "./telemetry/tracing.ts";
import type { WebhookDispatcher } from "./webhooks/dispatcher.ts";

/** Long-lived dependencies of the server, built once at start-up. */
export interface AppServices {
  db: Database;
  prisma: PrismaClient;
  secrets: SecretBox;
  logger: Logger;
  sessionPolicy: SessionPolicy;
  setupTokens: SetupTokens;
  events: SyncEvents;
  /** Ends a user's open subscriptions at once on every replica when their credentials change. */
  credentialChanges: CredentialChanges;
  /** The syncs this replica runs, its lease holder name, and whether it still takes work. */
  syncs: SyncCoordinator;
  /** How long after a connection's last run started a manual sync gets that run back (0: off). */
  manualSyncCooldownMs: number;
  /** How often a live change-feed subscriber reads the feed when no notice woke it. */
  feedPollMs: number;
  /** Which addresses connections may point at, at save and at connect (HYPERLENS_ALLOW_LOOPBACK_TARGETS). */
  targetPolicy: TargetAddressPolicy;
  metrics: AppMetrics;
  /** Delivers the change feed to webhook endpoints; started by the server, stopped on close. */
  webhooks: WebhookDispatcher;
  /** OpenTelemetry tracing; undefined when off (no OTEL_* exporter or endpoint configured). */
  tracing?: Tracing | undefined;
  /** Identity providers from the environment (HYPERLENS_IDENTITY_PROVIDERS); the table holds the rest. */
  environmentProviders: readonly IdentityProviderConfig[];
  /** HYPERLENS_PUBLIC_URL: where providers send the browser back to after signing in. */
  publicUrl?: string | undefined;
}

/** Per-request GraphQL context. */
export interface Context extends AppServices {
  viewer: Viewer | null;
  /** The client's address, for sign-in rate limits. */
  clientAddress: string | undefined;
  /** The client's User-Agent header, kept with a new session for the Sessions page. */
  userAgent: string | undefined;
  /** Set-Cookie values the response must carry (sign-in, sign-out). */
  responseCookies: string[];
  requestId: string;
}
