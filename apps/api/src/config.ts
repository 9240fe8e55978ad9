// Configuration from the environment, validated once at start-up. Every problem is listed in one
// message; secret values are checked for shape and never echoed.
import path from "node:path";
import { DEFAULT_POSTGRES_POOL, type PostgresPool } from "@hyperlens/db";
import { z } from "zod";
import { type Cidr, parseCidrList } from "./http/client-address.ts";
import { publicUrlSetting } from "./http/public-url.ts";
import {
  type IdentityProviderConfig,
  parseEnvironmentProviders,
} from "./identity/provider-config.ts";
import {
  TRACING_VARIABLES,
  type TracingConfig,
  tracingConfigFrom,
} from "./telemetry/tracing-config.ts";

const port = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .min(0, "must be between 0 and 65535")
  .max(65535, "must be between 0 and 65535");

const minutes = (fallback: number) =>
  z.coerce
    .number({ error: "must be a number of minutes" })
    .int()
    .positive("must be positive")
    .default(fallback);

const seconds = (fallback: number, min: number, max: number) =>
  z.coerce
    .number({ error: "must be a number of seconds" })
    .int("must be a whole number of seconds")
    .min(min, `must be between ${min} and ${max} seconds`)
    .max(max, `must be between ${min} and ${max} seconds`)
    .default(fallback);

const days = (fallback: number, min: number, max: number) =>
  z.coerce
    .number({ error: "must be a number of days" })
    .int("must be a whole number of days")
    .min(min, `must be between ${min} and ${max} days`)
    .max(max, `must be between ${min} and ${max} days`)
    .default(fallback);

const flag = (fallback: "0" | "1") =>
  z.enum(["0", "1", "false", "true"], { error: "must be 1/true or 0/false" }).default(fallback);

const isOn = (value: string) => value === "1" || value === "true";

const postgresUrl = z
  .string()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === "postgresql:" || url.protocol === "postgres:") && url.hostname !== ""
      );
    } catch {
      return false;
    }
  }, "must be a URL like postgresql://user@host:5432/database")
  // Prisma's own pool parameters are not read by the driver Hyperlens uses: said, not ignored.
  .refine(
    (value) => !/[?&](connection_limit|pool_timeout)=/.test(value),
    "connection_limit and pool_timeout are not read from the URL; set HYPERLENS_DATABASE_POOL_SIZE and HYPERLENS_DATABASE_POOL_TIMEOUT_SECONDS",
  )
  .optional();

const redisUrl = z
  .string()
  .refine((value) => {
    try {
      return ["redis:", "rediss:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, "must be a URL like redis://host:6379")
  .optional();

const cidrList = z
  .string()
  .superRefine((value, ctx) => {
    const { invalid } = parseCidrList(value);
    if (invalid.length > 0)
      ctx.addIssue({
        code: "custom",
        message: `must be comma-separated CIDRs like 10.0.0.0/8 or fd00::/8; not a CIDR: ${invalid.join(", ")}`,
      });
  })
  .optional();

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(4000),
  HOST: z.string().min(1).default("localhost"),
  DATABASE_URL: postgresUrl,
  HYPERLENS_DATABASE_POOL_SIZE: z.coerce
    .number({ error: "must be a number of connections" })
    .int("must be a whole number of connections")
    .min(1, "must be between 1 and 1000")
    .max(1000, "must be between 1 and 1000")
    .default(DEFAULT_POSTGRES_POOL.size),
  HYPERLENS_DATABASE_POOL_TIMEOUT_SECONDS: seconds(DEFAULT_POSTGRES_POOL.timeoutMs / 1000, 0, 3600),
  REDIS_URL: redisUrl,
  HYPERLENS_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, "must be 1-64 letters, digits, ':', '_', '.' or '-'")
    .default("hyperlens:"),
  HYPERLENS_DATA_DIR: z.string().min(1).default("./data"),
  HYPERLENS_SECRET_KEY: z.string().optional(),
  HYPERLENS_SECRET_KEY_PREVIOUS: z.string().optional(),
  HYPERLENS_SESSION_IDLE_MINUTES: minutes(8 * 60),
  HYPERLENS_SESSION_MAX_MINUTES: minutes(7 * 24 * 60),
  HYPERLENS_ALLOWED_ORIGINS: z.string().optional(),
  HYPERLENS_PUBLIC_URL: publicUrlSetting,
  HYPERLENS_IDENTITY_PROVIDERS: z.string().optional(),
  HYPERLENS_TRUSTED_PROXIES: cidrList,
  HYPERLENS_INVENTORY_ADDRESS_FAMILY: z
    .enum(["ipv4", "ipv6"], { error: "must be ipv4 or ipv6" })
    .optional(),
  HYPERLENS_INVENTORY_SUBNETS: cidrList,
  HYPERLENS_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  HYPERLENS_SUBSCRIPTION_RECHECK_SECONDS: z.coerce
    .number({ error: "must be a number of seconds" })
    .int()
    .min(1, "must be at least 1")
    .max(3600, "must be at most 3600")
    .default(30),
  HYPERLENS_DEMO: flag("0"),
  HYPERLENS_ALLOW_LOOPBACK_TARGETS: flag("0"),
  HYPERLENS_SCHEDULER: flag("1"),
  HYPERLENS_SCHEDULER_REFRESH_SECONDS: seconds(15, 1, 3600),
  HYPERLENS_SYNC_JITTER_SECONDS: seconds(30, 0, 3600),
  HYPERLENS_SYNC_LEASE_SECONDS: seconds(60, 2, 3600),
  HYPERLENS_SHUTDOWN_GRACE_SECONDS: seconds(30, 0, 3600),
  HYPERLENS_MANUAL_SYNC_COOLDOWN_SECONDS: seconds(60, 0, 86400),
  HYPERLENS_FEED_RETENTION_DAYS: days(90, 1, 36500),
  HYPERLENS_FEED_POLL_SECONDS: seconds(10, 1, 3600),
  ...TRACING_VARIABLES,
});

/** The validated configuration every part of the server reads. */
export interface Config {
  isProduction: boolean;
  port: number;
  host: string;
  database:
    | { kind: "pglite"; dataDir: string }
    | { kind: "postgres"; url: string; pool: PostgresPool };
  redisUrl: string | undefined;
  /** Put in front of every Redis channel, so installs (or test runs) sharing a Redis stay apart. */
  redisPrefix: string;
  dataDir: string;
  secretKey: string | undefined;
  previousSecretKeys: string | undefined;
  sessionIdleMs: number;
  sessionMaxMs: number;
  /** Origins allowed to open WebSockets and send credentialed requests besides our own. */
  allowedOrigins: string[];
  /** The origin users open (`https://host`); when set, requests naming another Host are refused. */
  publicUrl: string | undefined;
  /**
   * Reverse proxies whose X-Forwarded-For is believed for the client's address (sign-in limits);
   * empty: the TCP peer is the client.
   */
  trustedProxies: Cidr[];
  /**
   * The inventory exports' primary address: this family first (`?prefer=` overrides it). Unset
   * with inventorySubnets empty: the address rules' primary (docs/behaviour.md §10.9).
   */
  inventoryAddressFamily: "ipv4" | "ipv6" | undefined;
  /** The inventory exports' primary address: in these networks first, in order (`?subnet=`). */
  inventorySubnets: Cidr[];
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** How often an open WebSocket's session or token is checked again. */
  subscriptionRecheckMs: number;
  /** Start stand-in hypervisors on loopback with connections to them. */
  isDemo: boolean;
  /**
   * Let connections point at loopback, link-local (169.254.0.0/16, fe80::/10) and unspecified
   * addresses. Off by default; labs only. Demo mode turns it on for its loopback stand-ins.
   */
  allowLoopbackTargets: boolean;
  /** Sync each active connection on its interval in this process (off: cron runs `sync --all`). */
  isSchedulerOn: boolean;
  /** How often the scheduler re-reads the connections (new, changed, deactivated ones). */
  schedulerRefreshMs: number;
  /** The most a scheduled sync is delayed at random, so connections do not all start together. */
  syncJitterMs: number;
  /** How long a sync lease lives without a heartbeat: how soon a dead replica's sync is taken over. */
  syncLeaseMs: number;
  /** On SIGTERM, how long a running sync may finish before it is stopped at its safe point. */
  shutdownGraceMs: number;
  /**
   * How long after a connection's last run started a manual sync of it gets that run back
   * instead of reading the hypervisor again (0: off). Scheduled syncs do not wait for it.
   */
  manualSyncCooldownMs: number;
  /** How long change-feed events are kept; older ones are deleted by a periodic sweep. */
  feedRetentionMs: number;
  /** How often a live feed subscriber reads the feed when no notice woke it. */
  feedPollMs: number;
  /** OpenTelemetry tracing from the standard OTEL_* variables; null when off (the default). */
  tracing: TracingConfig | null;
  /** Single sign-on and directory providers from HYPERLENS_IDENTITY_PROVIDERS (read-only in the UI). */
  identityProviders: IdentityProviderConfig[];
}

/** A configuration that cannot start the server; the message lists every problem. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Every environment variable the server reads, for docs and the docs-vs-code test. */
export const CONFIG_VARIABLES = Object.keys(schema.shape);

/** Validates the environment; throws one ConfigError naming every wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankAsUnset = Object.fromEntries(
    CONFIG_VARIABLES.map((name) => [name, env[name] === "" ? undefined : env[name]]),
  );
  const parsed = schema.safeParse(blankAsUnset);
  const providers = parseEnvironmentProviders(blankAsUnset.HYPERLENS_IDENTITY_PROVIDERS);
  if (!parsed.success || providers.problems.length) {
    const lines = [
      ...(parsed.error?.issues ?? []).map((issue) => `  ${issue.path.join(".")}: ${issue.message}`),
      ...providers.problems.map((problem) => `  HYPERLENS_IDENTITY_PROVIDERS: ${problem}`),
    ];
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  // TRAP: docs/operations.md "Production mode" — stand-ins add made-up hypervisors to a real inventory.
  if (c.NODE_ENV === "production" && isOn(c.HYPERLENS_DEMO)) {
    throw new ConfigError(
      "Invalid configuration:\n  HYPERLENS_DEMO: demo stand-ins never start with NODE_ENV=production; unset HYPERLENS_DEMO",
    );
  }
  const dataDir = path.resolve(c.HYPERLENS_DATA_DIR);
  return {
    isProduction: c.NODE_ENV === "production",
    port: c.PORT,
    host: c.HOST,
    database: c.DATABASE_URL
      ? {
          kind: "postgres",
          url: c.DATABASE_URL,
          pool: {
            size: c.HYPERLENS_DATABASE_POOL_SIZE,
            timeoutMs: c.HYPERLENS_DATABASE_POOL_TIMEOUT_SECONDS * 1000,
          },
        }
      : { kind: "pglite", dataDir },
    redisUrl: c.REDIS_URL,
    redisPrefix: c.HYPERLENS_REDIS_PREFIX,
    dataDir,
    secretKey: c.HYPERLENS_SECRET_KEY,
    previousSecretKeys: c.HYPERLENS_SECRET_KEY_PREVIOUS,
    sessionIdleMs: c.HYPERLENS_SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: c.HYPERLENS_SESSION_MAX_MINUTES * 60_000,
    allowedOrigins: (c.HYPERLENS_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    publicUrl: c.HYPERLENS_PUBLIC_URL,
    trustedProxies: parseCidrList(c.HYPERLENS_TRUSTED_PROXIES ?? "").networks,
    inventoryAddressFamily: c.HYPERLENS_INVENTORY_ADDRESS_FAMILY,
    inventorySubnets: parseCidrList(c.HYPERLENS_INVENTORY_SUBNETS ?? "").networks,
    logLevel: c.HYPERLENS_LOG_LEVEL,
    subscriptionRecheckMs: c.HYPERLENS_SUBSCRIPTION_RECHECK_SECONDS * 1000,
    isDemo: isOn(c.HYPERLENS_DEMO),
    allowLoopbackTargets: isOn(c.HYPERLENS_ALLOW_LOOPBACK_TARGETS) || isOn(c.HYPERLENS_DEMO),
    isSchedulerOn: isOn(c.HYPERLENS_SCHEDULER),
    schedulerRefreshMs: c.HYPERLENS_SCHEDULER_REFRESH_SECONDS * 1000,
    syncJitterMs: c.HYPERLENS_SYNC_JITTER_SECONDS * 1000,
    syncLeaseMs: c.HYPERLENS_SYNC_LEASE_SECONDS * 1000,
    shutdownGraceMs: c.HYPERLENS_SHUTDOWN_GRACE_SECONDS * 1000,
    manualSyncCooldownMs: c.HYPERLENS_MANUAL_SYNC_COOLDOWN_SECONDS * 1000,
    feedRetentionMs: c.HYPERLENS_FEED_RETENTION_DAYS * 86_400_000,
    feedPollMs: c.HYPERLENS_FEED_POLL_SECONDS * 1000,
    tracing: tracingConfigFrom(c),
    identityProviders: providers.providers,
  };
}
