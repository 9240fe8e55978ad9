// The database of one scenario, prepared in the benchmark process before the Hyperlens server
// starts: a fresh data directory (embedded PGlite) or a throw-away database on the PostgreSQL
// server in DATABASE_URL, migrated, with an administrator and an API token for the GraphQL calls.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateSecretKeyText } from "@hyperlens/db";
import { createTestDatabase } from "@hyperlens/db/testing";
import { CAPABILITIES } from "@hyperlens/shared";
import { closeServices, createServices } from "../apps/api/src/app.ts";
import { createApiToken } from "../apps/api/src/auth/api-tokens.ts";
import { effectiveCapabilities } from "../apps/api/src/auth/viewer.ts";
import { loadConfig } from "../apps/api/src/config.ts";
import type { AppServices } from "../apps/api/src/context.ts";
import { createLogger } from "../apps/api/src/logger.ts";
import { createUser } from "../apps/api/src/services/users.ts";
import { settings } from "./settings.ts";

/** A prepared database and how the server finds it. */
export interface BenchDatabase {
  kind: "pglite" | "postgres";
  /** A scratch directory for the scenario (the PGlite data, the server's log). */
  dir: string;
  /** What the server process needs: data directory, DATABASE_URL, secret key. */
  env: Record<string, string>;
  /** A bearer token holding every capability. */
  token: string;
  /** Drops the throw-away database and removes the scratch directory. */
  close(): Promise<void>;
}

/** Prepares a database; `seed` runs on it before it is handed over (the server is not up yet). */
export async function prepareDatabase(
  seed?: (services: AppServices) => Promise<void>,
): Promise<BenchDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), "hl-bench-"));
  const scratch = settings.databaseUrl ? await createTestDatabase() : undefined;
  const env = {
    HYPERLENS_DATA_DIR: path.join(dir, "data"),
    HYPERLENS_SECRET_KEY: generateSecretKeyText(),
    DATABASE_URL: scratch?.url ?? "",
    // The benchmark's stand-ins listen on loopback, which the server refuses by default.
    HYPERLENS_ALLOW_LOOPBACK_TARGETS: "1",
  };
  const services = await createServices(loadConfig(env), createLogger("error"));
  let token: string;
  try {
    const user = await createUser(
      services.prisma,
      { username: "bench", password: "bench-password-1234", isAdmin: true },
      null,
    );
    const viewer = {
      kind: "USER" as const,
      userId: user.id,
      username: user.username,
      isAdmin: true,
      capabilities: effectiveCapabilities(user),
      scope: { all: true as const },
    };
    ({ token } = await createApiToken(services.prisma, viewer, {
      name: "bench",
      capabilities: [...CAPABILITIES],
    }));
    await seed?.(services);
  } finally {
    // The embedded database admits one process: the server opens it next.
    await closeServices(services);
  }
  return {
    kind: scratch ? "postgres" : "pglite",
    dir,
    env,
    token,
    async close() {
      await scratch?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
