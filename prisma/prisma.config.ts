// Prisma CLI configuration: WASM schema engine through driver adapters, so nothing is downloaded.
// Used only to author migrations and generate the client; the server applies migrations itself
// (packages/db/src/migrate.ts).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/false";
process.env.PRISMA_QUERY_ENGINE_LIBRARY ??= "/bin/false";
process.env.DATABASE_URL ??= "postgresql://unused@localhost/unused";
process.env.CHECKPOINT_DISABLE ??= "1";
// The WASM schema engine arms a 10 s lock-timeout timer it never clears; unref timers created
// from WASM frames so each CLI command exits when its work is done.
{
  const realSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = realSetTimeout(fn, ms, ...args);
    if ((ms ?? 0) >= 1000 && new Error().stack?.includes("wasm://")) timer.unref();
    return timer;
  }) as typeof setTimeout;
}

import path from "node:path";
import { defineConfig } from "prisma/config";

async function makeAdapter() {
  const pgUrl = process.env.PRISMA_MIGRATE_PG_URL;
  if (pgUrl) {
    const { pgMigrateAdapter } = await import("../packages/db/src/migrate-cli/pg-adapter.ts");
    return pgMigrateAdapter(pgUrl);
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pgliteMigrateAdapter } = await import("../packages/db/src/migrate-cli/pglite-adapter.ts");
  return pgliteMigrateAdapter(new PGlite(process.env.PRISMA_MIGRATE_PGLITE_DIR ?? "memory://"));
}
// `prisma migrate dev` calls adapter() twice; two PGlite instances on one data dir corrupt it.
let adapterOnce: ReturnType<typeof makeAdapter> | undefined;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "migrations") },
  adapter: () => {
    adapterOnce ??= makeAdapter();
    return adapterOnce;
  },
});
