// Two API processes on one PostgreSQL database and one Redis, as replicas behind a load balancer:
// a connection due on both syncs once, progress crosses replicas, a killed replica's sync is taken
// over with no data lost. Needs DATABASE_URL and REDIS_URL.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateSecretKeyText, loadKeyring, SecretBox } from "@hyperlens/db";
import { createTestDatabase, type TestDatabase } from "@hyperlens/db/testing";
import {
  createProxmoxStandin,
  generateCluster,
  type ProxmoxStandin,
} from "@hyperlens/standins/testing";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { createClient } from "graphql-ws";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createUser } from "./services/users.ts";
import { saveStandinConnection } from "./testing/standin-connections.ts";

const missing = ["DATABASE_URL", "REDIS_URL"].filter((name) => !process.env[name]);
const isSkipped = missing.length > 0;
if (isSkipped) {
  console.warn(
    `SKIPPED replicas.test.ts (two API processes on PostgreSQL + Redis): ${missing.join(" and ")} not set.`,
  );
}

const PASSWORD = "correct horse battery staple";
const GUESTS = 30;
const LEASE_SECONDS = 3;

interface Replica {
  process: ChildProcess;
  url: string;
  cookie: string;
  output: () => string;
}

let db: TestDatabase;
let standin: ProxmoxStandin;
let secrets: SecretBox;
let env: Record<string, string>;
let prefix: string;
let a: Replica;
let b: Replica;

async function startReplica(): Promise<Replica> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "main.ts")],
    {
      env: {
        PATH: process.env.PATH ?? "",
        ...env,
        HYPERLENS_DATA_DIR: mkdtempSync(path.join(tmpdir(), "hl-replica-")),
      },
    },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line:\n${output}`)), 60_000);
    child.stdout.on("data", () => {
      const match = /is running at (http:\/\/\S+) /.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      query:
        "mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { __typename } }",
      variables: { u: "operator", p: PASSWORD },
    }),
  });
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (!cookie) throw new Error(`sign-in failed: ${await res.text()}`);
  return { process: child, url, cookie, output: () => output };
}

async function graphql<T>(replica: Replica, query: string, variables: Record<string, unknown>) {
  const res = await fetch(`${replica.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: replica.cookie },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown[] };
  if (!body.data || body.errors) throw new Error(JSON.stringify(body));
  return body.data;
}

const SYNC = `mutation($id: ID!, $wait: Boolean) {
  syncConnection(id: $id, wait: $wait) { id outcome errorClass counts { seen removed } } }`;
type SyncRun = { id: string; outcome: string; counts: { seen: number; removed: number } };

async function addConnection(name: string, isActive: boolean) {
  const saved = await saveStandinConnection(
    { prisma: db.prisma, secrets },
    "PROXMOX",
    standin,
    name,
    {
      syncIntervalSeconds: 600,
      isActive,
    },
  );
  return saved.id;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function contention(replica: Replica): Promise<number> {
  const text = await (await fetch(`${replica.url}/metrics`)).text();
  return [...text.matchAll(/^hyperlens_sync_lease_contention_total\{[^}]*\} (\d+)/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}

beforeAll(async () => {
  if (isSkipped) return;
  db = await createTestDatabase();
  standin = await createProxmoxStandin({
    cluster: generateCluster({ nodes: 2, guests: GUESTS, seed: 5 }),
  });
  const key = generateSecretKeyText();
  secrets = new SecretBox(loadKeyring({ key, dataDir: "/nonexistent" }));
  prefix = `hl-test-${randomBytes(6).toString("hex")}:`;
  env = {
    DATABASE_URL: db.url ?? "",
    REDIS_URL: process.env.REDIS_URL ?? "",
    HYPERLENS_REDIS_PREFIX: prefix,
    HYPERLENS_SECRET_KEY: key,
    HYPERLENS_SYNC_LEASE_SECONDS: String(LEASE_SECONDS),
    HYPERLENS_SYNC_JITTER_SECONDS: "0",
    HYPERLENS_SCHEDULER_REFRESH_SECONDS: "1",
    HYPERLENS_LOG_LEVEL: "error",
    // These tests sync one connection again at once, on purpose: no manual-sync cool-down.
    HYPERLENS_MANUAL_SYNC_COOLDOWN_SECONDS: "0",
    // The stand-in listens on loopback, which the servers refuse by default.
    HYPERLENS_ALLOW_LOOPBACK_TARGETS: "1",
    HOST: "127.0.0.1",
    PORT: "0",
  };
  await createUser(
    db.prisma,
    {
      username: "operator",
      password: PASSWORD,
      isAdmin: false,
      capabilities: ["VIEW_INVENTORY", "RUN_SYNC"],
    },
    null,
  );
  [a, b] = await Promise.all([startReplica(), startReplica()]);
}, 120_000);

afterAll(async () => {
  if (isSkipped) return;
  for (const replica of [a, b]) replica?.process.kill("SIGKILL");
  await standin?.close();
  await db?.close();
  // Pub/sub leaves no keys; make sure nothing under this run's prefix stays behind either way.
  const redis = new Redis(process.env.REDIS_URL ?? "");
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
}, 60_000);

describe("two API replicas on one PostgreSQL database and one Redis", () => {
  it.skipIf(isSkipped)(
    "a connection due on both replicas is synced exactly once",
    async () => {
      standin.faults.latencyMs = 60;
      const id = await addConnection("due-on-both", true);
      const finished = () =>
        db.prisma.syncRun.count({ where: { connectionId: id, outcome: { not: "RUNNING" } } });
      await until(async () => (await finished()) > 0, "the scheduled sync");
      standin.faults.latencyMs = 0;
      // Both schedulers re-read the table every second; give them several chances to sync again.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      const runs = await db.prisma.syncRun.findMany({ where: { connectionId: id } });
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ trigger: "SCHEDULE", outcome: "SUCCESS" });
      // Both replicas did try: the lease, not luck, kept it to one.
      expect((await contention(a)) + (await contention(b))).toBeGreaterThan(0);
    },
    90_000,
  );

  it.skipIf(isSkipped)(
    "a subscriber on replica B sees the progress of a sync running on replica A",
    async () => {
      const id = await addConnection("watched", false);
      const client = createClient({
        url: `${b.url.replace("http", "ws")}/graphql`,
        webSocketImpl: class extends WebSocket {
          constructor(url: string, protocols?: string | string[]) {
            super(url, protocols, { headers: { cookie: b.cookie } });
          }
        },
        retryAttempts: 0,
      });
      const events: { type: string; syncRunId: string | null }[] = [];
      const finished = new Promise<void>((resolve, reject) => {
        client.subscribe<{ syncProgress: { type: string; syncRunId: string | null } }>(
          {
            query: `subscription($id: ID!) { syncProgress(connectionId: $id) { type syncRunId } }`,
            variables: { id: encodeGlobalID("Connection", id) },
          },
          {
            next: ({ data }) => {
              if (!data) return;
              events.push(data.syncProgress);
              if (data.syncProgress.type === "finished") resolve();
            },
            error: reject,
            complete: () => {},
          },
        );
      });
      // Let the subscription reach Redis before the sync starts.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      standin.faults.latencyMs = 30;
      try {
        const { syncConnection: run } = await graphql<{ syncConnection: SyncRun }>(a, SYNC, {
          id: encodeGlobalID("Connection", id),
          wait: false,
        });
        await finished;
        expect(events[0]?.type).toBe("started");
        expect(events.some((e) => e.type === "list")).toBe(true);
        expect(events.every((e) => e.syncRunId === run.id || e.syncRunId === null)).toBe(true);
      } finally {
        standin.faults.latencyMs = 0;
        await client.dispose();
      }
    },
    60_000,
  );

  it.skipIf(isSkipped)(
    "killing replica A mid-sync lets B sync the connection, with no data lost",
    async () => {
      const id = await addConnection("survivor", false);
      const globalId = encodeGlobalID("Connection", id);
      const first = await graphql<{ syncConnection: SyncRun }>(b, SYNC, {
        id: globalId,
        wait: true,
      });
      expect(first.syncConnection.outcome).toBe("SUCCESS");
      const live = () =>
        db.prisma.virtualMachine.count({ where: { connectionId: id, removedAt: null } });
      const before = await live();
      expect(before).toBeGreaterThan(0);

      standin.faults.latencyMs = 150;
      const requestsBefore = standin.requests.length;
      const onA = await graphql<{ syncConnection: SyncRun }>(a, SYNC, {
        id: globalId,
        wait: false,
      });
      await until(async () => standin.requests.length > requestsBefore + 10, "A to be mid-read");
      a.process.kill("SIGKILL");
      await new Promise((resolve) => a.process.once("exit", resolve));
      expect(await live()).toBe(before);
      standin.faults.latencyMs = 0;

      // B's request never reports A's dead run: on this machine B sees that A's process is gone and
      // takes the lease over at once (on another machine it would wait for the lease to expire).
      const onB = await graphql<{ syncConnection: SyncRun }>(b, SYNC, { id: globalId, wait: true });
      expect(onB.syncConnection.id).not.toBe(onA.syncConnection.id);
      expect(onB.syncConnection.outcome).toBe("SUCCESS");
      expect(onB.syncConnection.counts).toEqual({
        seen: first.syncConnection.counts.seen,
        removed: 0,
      });
      expect(await live()).toBe(before);

      const runs = await db.prisma.syncRun.findMany({
        where: { connectionId: id },
        orderBy: { startedAt: "asc" },
      });
      expect(runs.map((r) => r.outcome)).toEqual(["SUCCESS", "FAILED", "SUCCESS"]);
      expect(runs[1]?.errorClass).toBe("interrupted");
      expect(await db.prisma.syncLease.count({ where: { connectionId: id } })).toBe(0);
    },
    90_000,
  );
});
