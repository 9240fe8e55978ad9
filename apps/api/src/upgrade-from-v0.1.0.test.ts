// The database v0.1.0 left behind (fixtures/upgrade/v0.1.0, made by that release's own code),
// started by this build: start-up migrates it, and every user, token, secret, inventory row and
// history row is still there and usable — then a newer release's database is refused unchanged.
// Runs on the embedded database, or on PostgreSQL when DATABASE_URL is set.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { DatabaseStartupError } from "@hyperlens/db";
import { createEmptyPostgresDatabase } from "@hyperlens/db/testing";
import {
  createProxmoxStandin,
  createVcdStandin,
  createVcenterStandin,
  demoCluster,
  demoDirector,
  demoVcenter,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "./app.ts";
import { type Config, loadConfig } from "./config.ts";
import { createLogger } from "./logger.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../../fixtures/upgrade/v0.1.0");
const serverUrl = process.env.DATABASE_URL;

/** What the fixture's maker wrote down about the database it made (see its README). */
interface Manifest {
  migrations: string[];
  users: { username: string; password: string }[];
  tokens: { name: string; token: string; capabilities: string[] }[];
  connections: { kind: string; name: string; secret: string }[];
  rowCounts: Record<string, number>;
  agentAddressesOlderThanTheirGuest: number;
}

const manifest: Manifest = JSON.parse(
  readFileSync(path.join(FIXTURE, `manifest.${serverUrl ? "postgres" : "pglite"}.json`), "utf8"),
);

/** The environment that opens a restored database, and how to throw the database away. */
interface RestoredDatabase {
  env: Record<string, string>;
  discard(): Promise<void>;
}

/** The v0.1.0 database restored where this build will open it. */
async function restorePreviousRelease(): Promise<RestoredDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hyperlens-upgrade-"));
  if (serverUrl) {
    const database = await createEmptyPostgresDatabase(serverUrl);
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(readFileSync(path.join(FIXTURE, "postgres.sql"), "utf8"));
    } finally {
      await client.end();
    }
    return {
      env: { HYPERLENS_DATA_DIR: dataDir, DATABASE_URL: database.url },
      discard: async () => {
        await database.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const tar = brotliDecompressSync(readFileSync(path.join(FIXTURE, "pglite-data-dir.tar.br")));
  const { PGlite } = await import("@electric-sql/pglite");
  const pglite = new PGlite(path.join(dataDir, "pgdata"), { loadDataDir: new Blob([tar]) });
  await pglite.waitReady;
  await pglite.close();
  return {
    env: { HYPERLENS_DATA_DIR: dataDir },
    discard: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

function configFor(env: Record<string, string>): Config {
  return loadConfig({
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: "0",
    HYPERLENS_SECRET_KEY: readFileSync(path.join(FIXTURE, "secret-key.txt"), "utf8").trim(),
    // The stand-ins listen on loopback; the scheduler would sync on its own, mid-test.
    HYPERLENS_ALLOW_LOOPBACK_TARGETS: "1",
    HYPERLENS_SCHEDULER: "0",
    HYPERLENS_MANUAL_SYNC_COOLDOWN_SECONDS: "0",
    ...env,
  });
}

describe("a database left by v0.1.0, started by this build", () => {
  let restored: RestoredDatabase | undefined;
  let config: Config;
  let app: RunningApp | undefined;
  const running = () => {
    if (!app) throw new Error("the app is not running");
    return app;
  };
  const sql = <T>(query: string) => running().services.db.withExecutor((e) => e.query<T>(query));
  const graphql = async <T>(
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(`${running().url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: T; errors?: { message: string }[] };
  };

  beforeAll(async () => {
    restored = await restorePreviousRelease();
    config = configFor(restored.env);
    app = await startApp(config, createLogger("silent"));
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await restored?.discard();
  });

  it("applies every migration this build has on top of v0.1.0's", async () => {
    await running().services.db.checkReady();
    const rows = await sql<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    const names = rows.map((row) => row.migration_name);
    expect(names.slice(0, manifest.migrations.length)).toEqual(manifest.migrations);
    expect(names.length).toBeGreaterThan(manifest.migrations.length);
  });

  it("keeps every user, token, connection, secret, inventory and history row", async () => {
    const counts: Record<string, number> = {};
    for (const table of Object.keys(manifest.rowCounts)) {
      const [row] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`);
      counts[table] = row?.n ?? 0;
    }
    // One more audit entry: the rename of the younger of the two "ops" accounts.
    expect(counts).toEqual({
      ...manifest.rowCounts,
      audit_logs: (manifest.rowCounts.audit_logs ?? 0) + 1,
    });
    expect(manifest.rowCounts.virtual_machines).toBeGreaterThan(20);
  });

  it("signs every user in with their password, the younger case twin under its new name", async () => {
    const twins = await sql<{ id: string; username: string }>(
      `SELECT "id", "username" FROM "users" WHERE lower("username") LIKE 'ops%' ORDER BY "createdAt", "id"`,
    );
    expect(twins).toHaveLength(2);
    const [kept, renamed] = twins;
    expect(["Ops", "ops"]).toContain(kept?.username);
    const renamedFrom = kept?.username === "Ops" ? "ops" : "Ops";
    expect(renamed?.username).toBe(`${renamedFrom}-${renamed?.id.slice(0, 8)}`);
    const nameNow = (old: string) => (old === renamedFrom ? (renamed?.username ?? "") : old);
    for (const user of manifest.users) {
      const answer = await graphql<{ signIn: { __typename: string; data?: { username: string } } }>(
        `mutation($u: String!, $p: String!) {
           signIn(username: $u, password: $p) {
             __typename ... on MutationSignInSuccess { data { username } }
           }
         }`,
        { u: nameNow(user.username), p: user.password },
      );
      expect(answer.data?.signIn, user.username).toEqual({
        __typename: "MutationSignInSuccess",
        data: { username: nameNow(user.username) },
      });
    }
    const [audit] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "audit_logs" WHERE "action" = 'user.rename' AND "targetId" = '${renamed?.id}'`,
    );
    expect(audit?.n).toBe(1);
  });

  it("grants RUN_SYNC to the users and tokens that could view, to nobody else", async () => {
    const users = await sql<{ username: string; capabilities: string }>(
      `SELECT "username", array_to_string("capabilities"::text[], ',') AS capabilities
       FROM "users" WHERE NOT "isAdmin" ORDER BY lower("username"), "username"`,
    );
    for (const user of users) {
      const mayView = user.capabilities.includes("VIEW_INVENTORY");
      expect(user.capabilities.includes("RUN_SYNC"), user.username).toBe(mayView);
    }
    expect(users.find((u) => u.username === "vcenter-admin")?.capabilities).toBe("MANAGE_VCENTER");
    for (const token of manifest.tokens) {
      const answer = await graphql<{ viewer: { kind: string; capabilities: string[] } }>(
        "{ viewer { kind capabilities } }",
        {},
        { authorization: `Bearer ${token.token}` },
      );
      const mayView = token.capabilities.includes("VIEW_INVENTORY");
      expect(answer.data?.viewer.kind, token.name).toBe("API_TOKEN");
      expect([...(answer.data?.viewer.capabilities ?? [])].sort(), token.name).toEqual(
        [...token.capabilities, ...(mayView ? ["RUN_SYNC"] : [])].sort(),
      );
    }
  });

  it("opens every stored secret with the key v0.1.0 sealed it with", async () => {
    const rows = await sql<{ id: string; name: string; ciphertext: string }>(
      `SELECT c."id", c."name", s."ciphertext" FROM "connections" c
       JOIN "connection_secrets" s ON s."connectionId" = c."id"`,
    );
    expect(rows.map((row) => row.name).sort()).toEqual(
      manifest.connections.map((c) => c.name).sort(),
    );
    for (const row of rows) {
      const expected = manifest.connections.find((c) => c.name === row.name)?.secret;
      expect(running().services.secrets.open(row.ciphertext, row.id), row.name).toBe(expected);
    }
  });

  it("stores addresses lower-case, and marks the agent addresses kept from before as last-known", async () => {
    const [notLower] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "ip_addresses" WHERE "address" <> lower("address")`,
    );
    expect(notLower?.n).toBe(0);
    const [lastKnown] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "ip_addresses" WHERE "isLastKnown"`,
    );
    expect(manifest.agentAddressesOlderThanTheirGuest).toBeGreaterThan(0);
    expect(lastKnown?.n).toBe(manifest.agentAddressesOlderThanTheirGuest);
  });

  it("syncs every connection against the stand-ins with an upgraded token, keeping its rows", async () => {
    const standins = {
      "pve-prod": await createProxmoxStandin({ cluster: demoCluster(), version: "9.1" }),
      director: await createVcdStandin({ model: demoDirector() }),
      vcenter: await createVcenterStandin({ model: demoVcenter() }),
    };
    try {
      const token = manifest.tokens.find((t) => t.capabilities.includes("VIEW_INVENTORY"));
      const auth = { authorization: `Bearer ${token?.token}` };
      const listed = await graphql<{ connections: { id: string; name: string }[] }>(
        "{ connections { id name } }",
        {},
        auth,
      );
      for (const connection of listed.data?.connections ?? []) {
        const standin = standins[connection.name as keyof typeof standins];
        // The hypervisors "moved": the stand-ins listen on new ports with a new CA. Re-pointed
        // in SQL, so the secret v0.1.0 sealed is the one the sync has to open.
        await running().services.prisma.connection.updateMany({
          where: { name: connection.name },
          data: { baseUrl: standin.url, caPem: standin.caPem },
        });
        const before = await sql<{ id: string }>(
          `SELECT vm."id" FROM "virtual_machines" vm JOIN "connections" c ON c."id" = vm."connectionId"
           WHERE c."name" = '${connection.name}' AND vm."removedAt" IS NULL`,
        );
        const answer = await graphql<{
          syncConnection: {
            outcome: string;
            message: string | null;
            counts: Record<string, number>;
          };
        }>(
          `mutation($id: ID!) {
             syncConnection(id: $id, wait: true) { outcome message counts { added removed seen } }
           }`,
          { id: connection.id },
          auth,
        );
        const run = answer.data?.syncConnection;
        expect(["SUCCESS", "PARTIAL"], `${connection.name}: ${JSON.stringify(answer)}`).toContain(
          run?.outcome,
        );
        expect(run?.counts.seen, connection.name).toBeGreaterThan(0);
        const after = await sql<{ id: string }>(
          `SELECT vm."id" FROM "virtual_machines" vm JOIN "connections" c ON c."id" = vm."connectionId"
           WHERE c."name" = '${connection.name}' AND vm."removedAt" IS NULL`,
        );
        // Guests v0.1.0 stored are updated in place, never read in again as new rows.
        expect(after.map((row) => row.id)).toEqual(expect.arrayContaining(before.map((r) => r.id)));
      }
      expect(listed.data?.connections).toHaveLength(manifest.connections.length);
    } finally {
      await Promise.all(Object.values(standins).map((standin) => standin.close()));
    }
  });

  it("refuses to start once a newer release has migrated the database, naming its migration", async () => {
    const newer = "20991231000000_from_a_newer_release";
    await running().services.db.withExecutor((e) =>
      e.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES (gen_random_uuid()::text, repeat('0', 64), $1, now(), now(), 1)`,
        [newer],
      ),
    );
    await running().close();
    app = undefined;
    const error = await startApp(config, createLogger("silent")).then(
      async (started) => {
        await started.close();
        return undefined;
      },
      (caught: Error) => caught,
    );
    expect(error).toBeInstanceOf(DatabaseStartupError);
    expect(error?.message).toContain(newer);
    expect(error?.message).toMatch(/newer Hyperlens release/);
    expect(error?.message).toMatch(/restore a backup/);
  });
});
