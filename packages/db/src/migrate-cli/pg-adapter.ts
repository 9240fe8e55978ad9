// Adapter fixes for the Prisma CLI on a PostgreSQL server (authoring migrations only).
import { PrismaPg } from "@prisma/adapter-pg";

interface PgResult {
  fields?: { dataTypeID: number }[];
}
type PerformIo = (this: unknown, query: unknown) => Promise<PgResult>;

let isPatched = false;
function patchQueryable(adapter: object) {
  if (isPatched) return;
  const proto = Object.getPrototypeOf(Object.getPrototypeOf(adapter)) as { performIO: PerformIo };
  const performIO = proto.performIO;
  proto.performIO = async function (this: unknown, query: unknown) {
    const result = await performIO.call(this, query);
    // adapter-pg cannot deserialize `name` (19), `"char"` (18) or name[] (1003): read them as text.
    for (const field of result?.fields ?? []) {
      if (field.dataTypeID === 19 || field.dataTypeID === 18) field.dataTypeID = 25;
      else if (field.dataTypeID === 1003) field.dataTypeID = 1009;
    }
    return result;
  };
  isPatched = true;
}

/** Discrete pool fields: with a connectionString the shadow replay would hit the main database. */
export function pgPoolConfig(url: string) {
  const u = new URL(url);
  return {
    host: decodeURIComponent(u.hostname),
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username),
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: decodeURIComponent(u.pathname.slice(1)),
    allowExitOnIdle: true,
  };
}

export function pgMigrateAdapter(url: string) {
  const config = pgPoolConfig(url);
  const factory = new PrismaPg(config);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    patchQueryable(adapter);
    return adapter;
  };
  // Upstream drops the shadow database before closing its pool, which fails and leaks it.
  factory.connectToShadowDb = async () => {
    const admin = await factory.connect();
    const name = `prisma_migrate_shadow_db_${crypto.randomUUID()}`;
    await admin.executeScript(`CREATE DATABASE "${name}"`);
    const shadow = await new PrismaPg({ ...config, database: name }).connect();
    patchQueryable(shadow);
    const release = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await release();
      await admin.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.dispose();
    };
    return shadow;
  };
  return factory;
}
