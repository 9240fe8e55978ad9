// Entry point of the server process.
import { DatabaseStartupError, SecretKeyFormatError } from "@hyperlens/db";
import { startApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { firstRunBanner } from "./first-run-banner.ts";
import { limitHeapGrowth } from "./heap-growth.ts";
import { RedisStartupError } from "./syncs/progress-events.ts";

const STARTUP_ERRORS = [ConfigError, DatabaseStartupError, SecretKeyFormatError, RedisStartupError];

async function main() {
  const startedAt = performance.now();
  limitHeapGrowth();
  const config = loadConfig();
  const app = await startApp(config);
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const storage =
    config.database.kind === "pglite" ? `embedded database in ${config.dataDir}` : "PostgreSQL";
  console.log(`\nHyperlens is running at ${app.url} (${storage}, started in ${seconds} s)`);
  if (config.isDemo) {
    console.log("Demo mode: stand-in hypervisors run on this machine; press Sync to read them.");
  }
  if (app.setupToken) {
    console.log(firstRunBanner(app.url, app.setupToken));
  } else {
    console.log(`Sign in at ${app.url} with your Hyperlens user.\n`);
  }
  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    console.log(
      `Received ${signal}; shutting down (running syncs get ${config.shutdownGraceMs / 1000} s to finish).`,
    );
    try {
      await app.close();
      console.log("Hyperlens stopped.");
      process.exit(0);
    } catch (error) {
      console.error("Hyperlens did not stop cleanly:", error);
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  // Start-up failures a person can fix are printed as a message, not a stack trace.
  if (STARTUP_ERRORS.some((type) => error instanceof type)) {
    console.error(`Hyperlens could not start.\n${(error as Error).message}`);
  } else {
    console.error("Hyperlens could not start because of an unexpected error:", error);
  }
  process.exit(1);
});
