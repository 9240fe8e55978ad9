// Adapter fixes for the Prisma CLI on PGlite (authoring migrations only; see TOOLCHAIN notes).
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

interface PatchableQueryable {
  client: PGlite;
  executeRaw(query: { sql: string; args: unknown[] }): Promise<number>;
  executeScript(script: string): Promise<void>;
  onError(error: unknown): never;
}

function patch<T>(adapter: T): T {
  const queryable = adapter as unknown as PatchableQueryable;
  const executeRaw = queryable.executeRaw.bind(queryable);
  // PGlite's query() always uses the extended protocol, which refuses multi-statement migration
  // files: send argument-less statements through exec() (simple protocol).
  queryable.executeRaw = async (query) => {
    if (query.args.length > 0) return executeRaw(query);
    try {
      return (await queryable.client.exec(query.sql)).at(-1)?.affectedRows ?? 0;
    } catch (error) {
      return queryable.onError(error);
    }
  };
  // Upstream does not await exec(): a failing migration would be recorded as applied.
  queryable.executeScript = async (script) => {
    try {
      await queryable.client.exec(script);
    } catch (error) {
      queryable.onError(error);
    }
  };
  return adapter;
}

export function pgliteMigrateAdapter(client: PGlite) {
  const factory = new PrismaPGlite(client);
  const connect = factory.connect.bind(factory);
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => patch(await connect());
  factory.connectToShadowDb = async () => patch(await connectToShadowDb());
  return factory;
}
