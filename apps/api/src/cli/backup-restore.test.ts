// hyperlens backup / restore as an operator runs them: a real server on a real PGlite data
// directory (in this process, holding the lock), the CLI as a child process, archives restored
// into new directories and started.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gzipSync } from "node:zlib";
import { rawQuery } from "@hyperlens/db";
import { CAPABILITIES } from "@hyperlens/shared";
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  generateCluster,
  type ProxmoxStandin,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeServices, createServices, startApp } from "../app.ts";
import { createApiToken } from "../auth/api-tokens.ts";
import { createSession, SESSION_COOKIE } from "../auth/sessions.ts";
import { loadConfig } from "../config.ts";
import type { AppServices } from "../context.ts";
import { startServer } from "../http/server.ts";
import { createLogger } from "../logger.ts";
import { createUser } from "../services/users.ts";
import { syncConnection } from "../syncs/coordinator.ts";
import { cliEnvironment, runCli } from "../testing/cli-process.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";

const GUESTS = 1500;
const PASSWORD = "a long enough passphrase";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** What a restored data directory holds, read by starting Hyperlens on it. */
async function startOn(env: Record<string, string>) {
  const app = await startApp(
    loadConfig({ ...env, PORT: "0", HOST: "127.0.0.1", HYPERLENS_SCHEDULER: "0" }),
    createLogger("silent"),
  );
  try {
    const ready = await fetch(`${app.url}/readyz`);
    const { prisma, secrets } = app.services;
    const connection = await prisma.connection.findFirstOrThrow({ include: { secret: true } });
    const runs = await prisma.syncRun.findMany({ where: { connectionId: connection.id } });
    return {
      ready: ready.status,
      users: (await prisma.user.findMany({ orderBy: { username: "asc" } })).map((u) => u.username),
      tokens: await prisma.apiToken.count(),
      connection: connection.name,
      secret: secrets.open(connection.secret?.ciphertext ?? "", connection.id),
      vms: await prisma.virtualMachine.count({ where: { connectionId: connection.id } }),
      runAdded: runs.map((run) => (run.counts as { added?: number } | null)?.added ?? 0),
      // A transaction the archive caught half-written is rolled back when the copy is opened: its
      // transaction id reads "aborted" for ever after. Nothing else here ever rolls back a write.
      abortedTransactions: (
        await rawQuery<{ aborted: number }>(
          prisma,
          `SELECT count(*)::int AS aborted FROM generate_series(3, txid_current() - 1) AS x
           WHERE txid_status(x) = 'aborted'`,
        )
      )[0]?.aborted,
    };
  } finally {
    await app.close();
  }
}

describe("hyperlens backup and restore of the embedded database", () => {
  let standin: ProxmoxStandin;
  let services: AppServices;
  let server: { url: string; close(): Promise<void> };
  let env: Record<string, string>;
  let connectionId: string;
  const tokens = { admin: "", adminPartial: "", user: "" };
  let adminCookie = "";
  /** Called with each SQL statement the server runs (set by a test). */
  let onStatement: (sql: string) => void = () => {};
  const scratch = mkdtempSync(path.join(tmpdir(), "hl-backup-"));

  beforeAll(async () => {
    standin = await createProxmoxStandin({
      version: "9.1",
      cluster: generateCluster({ nodes: 2, guests: GUESTS }),
    });
    env = {
      ...cliEnvironment(path.join(scratch, "live")),
      HOST: "127.0.0.1",
      PORT: String(await freePort()),
    };
    const config = loadConfig({ ...env, NODE_ENV: "test" });
    services = await createServices(config, createLogger("silent"), {
      onQuery: (sql) => onStatement(sql),
    });
    server = await startServer(services, config);
    const { prisma } = services;
    const policy = services.sessionPolicy;
    const admin = await createUser(
      prisma,
      { username: "root", password: PASSWORD, isAdmin: true },
      null,
    );
    const ops = await createUser(
      prisma,
      { username: "ops", password: PASSWORD, capabilities: [...CAPABILITIES] },
      null,
    );
    const adminViewer = {
      kind: "USER" as const,
      userId: admin.id,
      username: "root",
      isAdmin: true,
      capabilities: new Set(CAPABILITIES),
      scope: { all: true as const },
    };
    const opsViewer = { ...adminViewer, userId: ops.id, username: "ops", isAdmin: false };
    const all = [...CAPABILITIES];
    tokens.admin = (
      await createApiToken(prisma, adminViewer, { name: "backup", capabilities: all })
    ).token;
    tokens.adminPartial = (
      await createApiToken(prisma, adminViewer, {
        name: "view",
        capabilities: all.filter((c) => c !== "MANAGE_USERS"),
      })
    ).token;
    tokens.user = (
      await createApiToken(prisma, opsViewer, { name: "ops", capabilities: all })
    ).token;
    adminCookie = `${SESSION_COOKIE}=${(await createSession(prisma, admin.id, policy)).secret}`;
    const saved = await saveStandinConnection(services, "PROXMOX", standin, "lab");
    connectionId = saved.id;
  });

  let isServerStopped = false;
  async function stopServer() {
    if (isServerStopped) return;
    isServerStopped = true;
    await server?.close();
    if (services) await closeServices(services);
  }

  afterAll(async () => {
    await stopServer();
    await standin?.close();
  });

  it("a backup taken while a sync writes holds whole chunks only, and restores with everything", async () => {
    // The request arrives while the sync's first transaction is open (its counts are written, its
    // COMMIT not yet sent); the archive must wait for it and hold no later half-written chunk.
    let backup: Promise<Response> | undefined;
    onStatement = (sql) => {
      if (backup || !sql.startsWith("UPDATE sync_runs SET counts")) return;
      backup = fetch(`${server.url}/admin/backup`, {
        headers: { authorization: `Bearer ${tokens.admin}` },
      });
    };
    const result = await syncConnection(services, connectionId, { trigger: "MANUAL" }).done;
    onStatement = () => {};
    expect(result.outcome).toBe("SUCCESS");
    const response = await (backup ?? Promise.reject(new Error("the sync wrote nothing")));
    expect(response.status).toBe(200);
    const file = path.join(scratch, "during-sync.tar.gz");
    writeFileSync(file, new Uint8Array(await response.arrayBuffer()));

    const restoredEnv = { ...env, HYPERLENS_DATA_DIR: path.join(scratch, "from-http") };
    const restored = await runCli(["restore", file], restoredEnv);
    expect(restored.out).toContain("Restored");
    expect(restored.status).toBe(0);
    const state = await startOn(restoredEnv);
    expect(state).toMatchObject({
      ready: 200,
      users: ["ops", "root"],
      tokens: 3,
      connection: "lab",
      secret: DEFAULT_TOKEN.secret,
    });
    // Consistent: the rows the archive holds are exactly what the run's committed counts say.
    expect(state.runAdded).toEqual([state.vms]);
    expect(state.vms).toBeLessThan(GUESTS);
  }, 120_000); // a sync, an archive, a restore and a server start: over 30 s on a busy machine

  it("hyperlens backup asks the running server for the archive, which restores and starts", async () => {
    const file = path.join(scratch, "by-cli.tar.gz");
    const taken = await runCli(["backup", file], { ...env, HYPERLENS_TOKEN: tokens.admin });
    expect(taken.out).toContain(`from Hyperlens at http://127.0.0.1:${env.PORT}`);
    expect(taken.out).toContain("The archive holds the database only, not the secret key");
    expect(taken.status).toBe(0);
    // It holds every password and token hash: readable by its owner only.
    expect(statSync(file).mode & 0o077).toBe(0);
    const restoredEnv = { ...env, HYPERLENS_DATA_DIR: path.join(scratch, "from-cli") };
    expect((await runCli(["restore", file], restoredEnv)).status).toBe(0);
    expect(await startOn(restoredEnv)).toMatchObject({
      ready: 200,
      users: ["ops", "root"],
      connection: "lab",
      secret: DEFAULT_TOKEN.secret,
      vms: GUESTS,
      runAdded: [GUESTS],
    });
    const audited = await services.prisma.auditLog.findMany({
      where: { action: "database.backup" },
    });
    expect(audited).toHaveLength(2);
  });

  it("refuses a backup to non-administrators, partial tokens and browser sessions, and audits it", async () => {
    const ask = (headers: Record<string, string>) =>
      fetch(`${server.url}/admin/backup`, { headers }).then(async (r) => ({
        status: r.status,
        code: ((await r.json()) as { errors: { extensions: { code: string } }[] }).errors[0]
          ?.extensions.code,
      }));
    expect(await ask({})).toEqual({ status: 401, code: "UNAUTHENTICATED" });
    expect(await ask({ cookie: adminCookie })).toEqual({ status: 401, code: "UNAUTHENTICATED" });
    expect(await ask({ authorization: `Bearer ${tokens.user}` })).toEqual({
      status: 403,
      code: "FORBIDDEN",
    });
    expect(await ask({ authorization: `Bearer ${tokens.adminPartial}` })).toEqual({
      status: 403,
      code: "FORBIDDEN",
    });
    const file = path.join(scratch, "refused.tar.gz");
    const refused = await runCli(["backup", file], { ...env, HYPERLENS_TOKEN: tokens.user });
    expect(refused.out).toContain("refused the backup (403): A backup needs an API token");
    expect(refused.status).toBe(1);
    expect(existsSync(file)).toBe(false);
    const noToken = await runCli(["backup", file], env);
    expect(noToken.out).toContain("HYPERLENS_TOKEN");
    expect(noToken.status).toBe(1);
    const refusals = await services.prisma.auditLog.count({
      where: { action: "database.backup.refused" },
    });
    expect(refusals).toBe(3);
  });

  // Three CLI processes, each starting Node and tsx: 30 s was too little beside other test files.
  it("restore refuses a data directory a server runs on or that holds anything, changing nothing", {
    timeout: 120_000,
  }, async () => {
    const file = path.join(scratch, "by-cli.tar.gz"); // made by the test before last
    const onLive = await runCli(["restore", file], env);
    expect(onLive.out).toContain("is using the data directory");
    expect(onLive.status).toBe(1);
    const occupied = path.join(scratch, "occupied");
    mkdirSync(occupied);
    writeFileSync(path.join(occupied, "notes.txt"), "keep me");
    const refused = await runCli(["restore", file], { ...env, HYPERLENS_DATA_DIR: occupied });
    expect(refused.out).toContain("is not empty (it holds notes.txt)");
    expect(refused.status).toBe(1);
    expect(readdirSync(occupied)).toEqual(["notes.txt"]);
    expect(readFileSync(path.join(occupied, "notes.txt"), "utf8")).toBe("keep me");
    const missing = await runCli(["restore", path.join(scratch, "no-such.tar.gz")], {
      ...env,
      HYPERLENS_DATA_DIR: path.join(scratch, "never-made"),
    });
    expect(missing.out).toContain("Could not read");
    expect(missing.status).toBe(1);
  });

  it("with no server running, hyperlens backup reads the data directory itself", async () => {
    await stopServer();
    const file = path.join(scratch, "offline.tar.gz");
    const taken = await runCli(["backup", file], env);
    expect(taken.out).toContain("(no server was running)");
    expect(taken.status).toBe(0);
    const restoredEnv = { ...env, HYPERLENS_DATA_DIR: path.join(scratch, "offline") };
    expect((await runCli(["restore", file], restoredEnv)).status).toBe(0);
    expect(await startOn(restoredEnv)).toMatchObject({ users: ["ops", "root"], vms: GUESTS });
  });

  it("on PostgreSQL, backup and restore say to use pg_dump and pg_restore, exit code 2", async () => {
    const postgres = { ...env, DATABASE_URL: "postgresql://hyperlens@127.0.0.1:1/hyperlens" };
    const backup = await runCli(["backup", path.join(scratch, "pg.tar.gz")], postgres);
    expect(backup.out).toContain("back it up with pg_dump");
    expect(backup.status).toBe(2);
    const restore = await runCli(["restore", path.join(scratch, "by-cli.tar.gz")], postgres);
    expect(restore.out).toContain("pg_restore");
    expect(restore.status).toBe(2);
  });
});

describe("an archive of an earlier release's embedded database", () => {
  const fixture = path.resolve(import.meta.dirname, "../../../../fixtures/upgrade/v0.1.0");

  it("restores with hyperlens restore, and this release migrates it when it starts", async () => {
    // The fixture is PGlite's tar of v0.1.0's data directory, brotli-compressed; as gzip it is
    // what that release's dumpDataDir("gzip") made.
    const tar = brotliDecompressSync(readFileSync(path.join(fixture, "pglite-data-dir.tar.br")));
    const file = path.join(mkdtempSync(path.join(tmpdir(), "hl-restore-v0.1.0-")), "v0.1.0.tar.gz");
    writeFileSync(file, gzipSync(tar));
    const manifest: {
      rowCounts: Record<string, number>;
      connections: { name: string; secret: string }[];
    } = JSON.parse(readFileSync(path.join(fixture, "manifest.pglite.json"), "utf8"));
    const env = {
      HYPERLENS_DATA_DIR: path.join(path.dirname(file), "data"),
      HYPERLENS_SECRET_KEY: readFileSync(path.join(fixture, "secret-key.txt"), "utf8").trim(),
    };
    const restored = await runCli(["restore", file], env);
    expect(restored.out).toContain("Migrations of this release run when Hyperlens next starts");
    expect(restored.status).toBe(0);
    const app = await startApp(
      loadConfig({ ...env, PORT: "0", HOST: "127.0.0.1", HYPERLENS_SCHEDULER: "0" }),
      createLogger("silent"),
    );
    try {
      expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
      const { prisma, secrets } = app.services;
      expect(await prisma.user.count()).toBe(manifest.rowCounts.users);
      expect(await prisma.virtualMachine.count()).toBe(manifest.rowCounts.virtual_machines);
      const connections = await prisma.connection.findMany({ include: { secret: true } });
      const opened = Object.fromEntries(
        connections.map((c) => [c.name, secrets.open(c.secret?.ciphertext ?? "", c.id)]),
      );
      expect(opened).toEqual(
        Object.fromEntries(manifest.connections.map((c) => [c.name, c.secret])),
      );
    } finally {
      await app.close();
    }
  });
});
