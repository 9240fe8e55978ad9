// A stored secret no configured key opens: Test and sync say so, and what to do, in their result.
import { generateSecretKeyText, loadKeyring, SecretBox } from "@hyperlens/db";
import { RESULT_ERROR_CLASSES } from "@hyperlens/shared";
import {
  createProxmoxStandin,
  generateCluster,
  type ProxmoxStandin,
} from "@hyperlens/standins/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppServices } from "../context.ts";
import { syncConnection } from "../syncs/coordinator.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { createTestServices } from "../testing/test-app.ts";
import { testConnection } from "./connection-test.ts";

const boxOf = (key: string) => new SecretBox(loadKeyring({ key, dataDir: "/nonexistent" }));

let proxmox: ProxmoxStandin;
let services: AppServices;
let close: () => Promise<void>;
let connectionId: string;

beforeAll(async () => {
  proxmox = await createProxmoxStandin({ cluster: generateCluster({ nodes: 1 }) });
});
afterAll(async () => proxmox?.close());

beforeEach(async () => {
  const test = await createTestServices();
  close = () => test.db.close();
  const sealedWithOldKey = { ...test.services, secrets: boxOf(generateSecretKeyText()) };
  connectionId = (await saveStandinConnection(sealedWithOldKey, "PROXMOX", proxmox, "pve")).id;
  // The server restarts with a new HYPERLENS_SECRET_KEY and without the old one as previous.
  services = { ...test.services, secrets: boxOf(generateSecretKeyText()) };
});
afterEach(async () => close?.());

/** What the result must tell the administrator: the cause and both ways out. */
function expectSaysWhatToDo(message: string) {
  expect(message).toContain("cannot be opened with the configured keys");
  expect(message).toMatch(/enter the secret again/i);
  expect(message).toContain("HYPERLENS_SECRET_KEY_PREVIOUS");
  expect(message).toContain("hyperlens secrets rotate");
}

describe("a secret sealed with a key that is no longer configured", () => {
  it("makes Test answer with its own error class and what to do, not an unexpected error", async () => {
    const result = await testConnection(services, connectionId);
    expect(result).toMatchObject({
      ok: false,
      errorClass: RESULT_ERROR_CLASSES.SECRET_UNREADABLE,
    });
    expectSaysWhatToDo(result.message);
    expect(proxmox.requests).toEqual([]);
  });

  it("makes a sync fail with its own error class and what to do, on the run and the connection", async () => {
    const result = await syncConnection(services, connectionId, { trigger: "MANUAL" }).done;
    expect(result).toMatchObject({
      outcome: "FAILED",
      errorClass: RESULT_ERROR_CLASSES.SECRET_UNREADABLE,
    });
    expectSaysWhatToDo(result.message);
    const run = await services.prisma.syncRun.findUniqueOrThrow({
      where: { id: result.syncRunId },
    });
    expect(run.errorClass).toBe(RESULT_ERROR_CLASSES.SECRET_UNREADABLE);
    const connection = await services.prisma.connection.findUniqueOrThrow({
      where: { id: connectionId },
    });
    expect(connection.lastErrorClass).toBe(RESULT_ERROR_CLASSES.SECRET_UNREADABLE);
    expectSaysWhatToDo(connection.lastSyncMessage ?? "");
  });
});
