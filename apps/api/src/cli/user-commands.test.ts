// `hyperlens user list | passwd | disable | enable` as an operator runs them: a real process on a
// real database — refused on an embedded data directory a server holds, and on PostgreSQL run
// while the server runs, ending the user's open subscriptions through Redis (docs/behaviour.md §12.10).
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@hyperlens/db";
import type { TestDatabase } from "@hyperlens/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnvironment, runCli } from "../testing/cli-process.ts";
import { openSse, openWebSocket } from "../testing/open-subscriptions.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const PASSPHRASE = "a long enough passphrase\n";

describe("the user commands on the embedded database", () => {
  it("list, set a password (which must be changed), disable and enable a user while no server runs", async () => {
    const env = cliEnvironment();
    const cli = (args: string[], input?: string) => runCli(args, env, input);
    expect((await cli(["user", "create", "ops", "--password-stdin"], PASSPHRASE)).status).toBe(0);

    const passwd = await cli(
      ["user", "passwd", "ops", "--password-stdin"],
      "another long passphrase\n",
    );
    expect(passwd.out).toContain("Set the password of ops; their sessions have ended.");
    expect(passwd.out).toContain("must choose a new one at their next sign-in");
    expect(passwd.status).toBe(0);
    expect((await cli(["user", "list"])).out).toMatch(
      /^ops\s+VIEW_INVENTORY,RUN_SYNC\s+enabled, must change password$/m,
    );

    const kept = await cli(
      ["user", "passwd", "ops", "--password-stdin", "--no-must-change"],
      "a third long passphrase\n",
    );
    expect(kept.out).not.toContain("must choose");
    expect((await cli(["user", "list"])).out).toMatch(/^ops\s+VIEW_INVENTORY,RUN_SYNC\s+enabled$/m);

    const disabled = await cli(["user", "disable", "ops"]);
    expect(disabled.out).toContain("Disabled ops");
    expect(disabled.status).toBe(0);
    expect((await cli(["user", "list"])).out).toMatch(/^ops\s+\S+\s+disabled$/m);
    expect((await cli(["user", "enable", "ops"])).status).toBe(0);
    expect((await cli(["user", "list"])).out).toMatch(/^ops\s+\S+\s+enabled$/m);

    expect(await cli(["user", "disable", "nobody"])).toMatchObject({
      status: 1,
      out: expect.stringContaining("There is no user named nobody."),
    });
    const db = await openDatabase({ kind: "pglite", dataDir: env.HYPERLENS_DATA_DIR ?? "" });
    try {
      const actions = await db.prisma.auditLog.findMany({ orderBy: { at: "asc" } });
      expect(actions.map((a) => a.action)).toEqual([
        "user.create",
        "user.password.reset",
        "user.password.reset",
        "user.disable",
        "user.enable",
      ]);
      expect(actions.at(-1)?.actorName).toMatch(/^cli:/);
    } finally {
      await db.close();
    }
    // Nine runs of the command, each opening and migrating the embedded database: minutes on a
    // loaded machine.
  }, 400_000);

  it("refuse, saying to stop the server or use the web app, while a server holds the data directory", async () => {
    const env = cliEnvironment(mkdtempSync(path.join(tmpdir(), "hl-cli-held-")));
    const cli = (args: string[], input?: string) => runCli(args, env, input);
    expect((await cli(["user", "create", "ops", "--password-stdin"], PASSPHRASE)).status).toBe(0);
    // This test process holds the data directory, as a running server does.
    const server = await openDatabase({ kind: "pglite", dataDir: env.HYPERLENS_DATA_DIR ?? "" });
    try {
      for (const args of [
        ["user", "disable", "ops"],
        ["user", "passwd", "ops", "--password-stdin"],
        ["user", "list"],
      ]) {
        const run = await cli(args, "another long passphrase\n");
        expect(run.status, args.join(" ")).toBe(1);
        expect(run.out).toContain(`The Hyperlens server (pid ${process.pid}) is running`);
        expect(run.out).toContain("Stop the server");
        expect(run.out).toContain("web app");
      }
      const user = await server.prisma.user.findUniqueOrThrow({ where: { username: "ops" } });
      expect(user.disabledAt).toBeNull();
    } finally {
      await server.close();
    }
  }, 400_000);
});

const missing = ["DATABASE_URL", "REDIS_URL"].filter((name) => !process.env[name]);
if (missing.length) {
  console.warn(
    `SKIPPED user-commands.test.ts "while the server runs on PostgreSQL": ${missing.join(" and ")} not set.`,
  );
}

describe.skipIf(missing.length > 0)("the user commands while the server runs on PostgreSQL", () => {
  let app: TestApp;
  const prefix = `hl-cli-test-${randomBytes(4).toString("hex")}:`;
  beforeAll(async () => {
    // The periodic re-check is far beyond the test: only the signal through Redis can end them.
    app = await startTestApp({
      subscriptionRecheckMs: 10 * 60_000,
      redisUrl: process.env.REDIS_URL,
      redisPrefix: prefix,
    });
  });
  afterAll(async () => app?.close());

  it("disable ends the user's sessions at once and their open subscriptions over both transports", async () => {
    const cookie = await app.signedInAs("leaver");
    const subscriptions = [
      await openSse(app.url, { cookie }),
      await openWebSocket(app.url, { cookie }),
    ];
    try {
      const url = (app.services.db as TestDatabase).url ?? "";
      const run = await runCli(["user", "disable", "leaver"], {
        ...cliEnvironment(),
        DATABASE_URL: url,
        REDIS_URL: process.env.REDIS_URL ?? "",
        HYPERLENS_REDIS_PREFIX: prefix,
      });
      expect(run.out).toContain("Disabled leaver");
      expect(run.status).toBe(0);
      const viewer = await app.graphql("{ viewer { username } }", {}, { cookie });
      expect(viewer.body.data).toEqual({ viewer: null });
      const [sse, ws] = subscriptions;
      expect(await sse?.endsWithin(5_000)).toBe(true);
      expect(sse?.text()).toContain("UNAUTHENTICATED");
      expect(await ws?.endsWithin(5_000)).toBe(true);
      expect(ws?.text()).toContain("close 4401");
    } finally {
      for (const s of subscriptions) s.close();
    }
  }, 120_000);
});
