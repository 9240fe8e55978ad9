// The command line as an operator runs it: a real process on a real data directory.
import { generateSecretKeyText } from "@hyperlens/db";
import {
  createProxmoxStandin,
  generateCluster,
  type ProxmoxStandin,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../app.ts";
import { loadConfig } from "../config.ts";
import { createLogger } from "../logger.ts";
import { cliEnvironment, runCli } from "../testing/cli-process.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";

describe("the hyperlens command", () => {
  let standin: ProxmoxStandin;
  let env: Record<string, string>;

  const cli = (args: string[], input?: string, overrides: Record<string, string> = {}) =>
    runCli(args, { ...env, ...overrides }, input);

  beforeAll(async () => {
    // Every node online, so a good sync is SUCCESS (an offline node makes it PARTIAL).
    standin = await createProxmoxStandin({
      version: "9.1",
      cluster: generateCluster({ nodes: 2, guests: 12 }),
    });
    env = cliEnvironment();
    const services = await createServices(loadConfig(env), createLogger("silent"));
    await saveStandinConnection(services, "PROXMOX", standin, "lab");
    await saveStandinConnection(services, "PROXMOX", standin, "broken", { secret: "wrong" });
    await services.db.close();
  });
  afterAll(async () => standin?.close());

  it("creates a user from a password on standard input", async () => {
    const { status, out } = await cli(
      ["user", "create", "ops", "--password-stdin"],
      "a long enough passphrase\n",
    );
    expect(out).toContain("Created user ops.");
    expect(status).toBe(0);
  });

  it("creates a user who may view and start syncs, or with --no-sync one who may only view", async () => {
    const byDefault = await cli(
      ["user", "create", "viewer", "--password-stdin"],
      "a long enough passphrase\n",
    );
    expect(byDefault.out).toContain("Created user viewer. Holds: VIEW_INVENTORY, RUN_SYNC.");
    const viewOnly = await cli(
      ["user", "create", "looker", "--password-stdin", "--no-sync"],
      "a long enough passphrase\n",
    );
    expect(viewOnly.out).toContain("Created user looker. Holds: VIEW_INVENTORY.");
    expect(viewOnly.status).toBe(0);
  });

  it("refuses a weak password with the rule, and a wrong command with the usage", async () => {
    expect(await cli(["user", "create", "weak", "--password-stdin"], "short\n")).toMatchObject({
      status: 1,
      out: expect.stringContaining("password: Use at least 12 characters."),
    });
    expect(await cli(["sync"])).toMatchObject({
      status: 2,
      out: expect.stringContaining("Usage: hyperlens"),
    });
  });

  it("syncs one connection by name and prints a one-line summary", async () => {
    const { status, out } = await cli(["sync", "lab"]);
    expect(out).toMatch(/^lab \(PROXMOX\): SUCCESS, \d+ seen, \d+ added, 0 changed, 0 removed$/m);
    expect(status).toBe(0);
  });

  it("sync --all runs each due connection once, says which were not due, and exits non-zero when one failed", async () => {
    // "lab" was synced by the test above: not due for its interval; "broken" never was.
    const { status, out } = await cli(["sync", "--all"]);
    expect(out).toMatch(/^broken \(PROXMOX\): FAILED/m);
    expect(out).toMatch(/^lab \(PROXMOX\): not due \(next sync at \d{4}-/m);
    expect(status).toBe(1);
  });

  it("sync --all --force runs every active connection regardless of due-ness", async () => {
    const { status, out } = await cli(["sync", "--all", "--force"]);
    expect(out).toMatch(/^broken \(PROXMOX\): FAILED/m);
    expect(out).toMatch(/^lab \(PROXMOX\): SUCCESS/m);
    expect(status).toBe(1);
  });

  it("secrets rotate re-seals every secret under the new key: connections still log in, the old key alone no longer decrypts", async () => {
    const oldKey = env.HYPERLENS_SECRET_KEY ?? "";
    const newKey = generateSecretKeyText();
    const rotated = await cli(["secrets", "rotate"], "", {
      HYPERLENS_SECRET_KEY: newKey,
      HYPERLENS_SECRET_KEY_PREVIOUS: oldKey,
    });
    expect(rotated.out).toMatch(
      /^Re-sealed 2 connection secret\(s\) with key \S+; 0 already used it\.$/m,
    );
    expect(rotated.status).toBe(0);

    const withNewKey = await cli(["sync", "lab"], "", { HYPERLENS_SECRET_KEY: newKey });
    expect(withNewKey.out).toMatch(/^lab \(PROXMOX\): SUCCESS/m);
    expect(withNewKey.status).toBe(0);

    const withOldKey = await cli(["sync", "lab"], "", { HYPERLENS_SECRET_KEY: oldKey });
    expect(withOldKey.out).not.toMatch(/SUCCESS/);
    expect(withOldKey.status).not.toBe(0);
    expect(withOldKey.out).toMatch(/secret/i);
  }, 90_000);
});
