// Test and Sync through the API against the Proxmox stand-in (a real HTTPS server).
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  DEFAULT_USER,
  type ProxmoxStandin,
  proxmoxNode,
  qemuGuest,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const SAVE = `mutation($input: ProxmoxConnectionInput!) {
  saveProxmoxConnection(input: $input) {
    __typename ... on ValidationError { message } ... on MutationSaveProxmoxConnectionSuccess { data { id } }
  }
}`;
const TEST = "mutation($id: ID!) { testConnection(id: $id) { ok errorClass message } }";
const SYNC = `mutation($id: ID!, $dry: Boolean) {
  syncConnection(id: $id, dryRun: $dry, wait: true) {
    outcome message errorClass guardFired isDryRun preview counts { seen added removed unchanged rowsWritten }
  }
}`;

type SyncRun = {
  outcome: string;
  message: string | null;
  errorClass: string | null;
  isDryRun: boolean;
  preview: { added: unknown[] } | null;
  counts: { seen: number; added: number; removed: number; unchanged: number; rowsWritten: number };
};

function cluster() {
  return {
    name: "lab",
    nodes: [proxmoxNode({ name: "pve1" }, 0), proxmoxNode({ name: "pve2" }, 1)],
    guests: [100, 101, 102, 103].map((vmid, i) =>
      qemuGuest({
        vmid,
        name: `vm${vmid}`,
        node: i % 2 ? "pve2" : "pve1",
        nics: [{ mac: `BC:24:11:00:00:0${i}` }],
      }),
    ),
  };
}

describe("testing and syncing a Proxmox connection", () => {
  let app: TestApp;
  let admin: string;
  let standin: ProxmoxStandin;

  beforeAll(async () => {
    ({ app, admin } = await startTestAppAsAdmin());
    standin = await createProxmoxStandin({ cluster: cluster(), version: "9.1" });
  });
  afterAll(async () => {
    await standin?.close();
    await app?.close();
  });

  async function save(input: Record<string, unknown>) {
    const res = await app.graphql<{
      saveProxmoxConnection: { data?: { id: string }; message?: string };
    }>(SAVE, { input: { verifyTls: true, caPem: standin.caPem, ...input } }, { cookie: admin });
    const id = res.body.data?.saveProxmoxConnection.data?.id;
    if (!id) throw new Error(JSON.stringify(res.body));
    return id;
  }

  const tokenInput = () => ({
    name: `token-${Math.random()}`,
    url: standin.url,
    username: DEFAULT_TOKEN.id.split("!")[0],
    tokenId: DEFAULT_TOKEN.id.split("!")[1],
    secret: DEFAULT_TOKEN.secret,
  });

  const call = async <T>(query: string, variables: Record<string, unknown>) =>
    (await app.graphql<T>(query, variables, { cookie: admin })).body;

  it("Test logs in with a token and says what it found", async () => {
    const id = await save(tokenInput());
    const body = await call<{ testConnection: { ok: boolean; message: string } }>(TEST, { id });
    expect(body.data?.testConnection).toEqual({
      ok: true,
      errorClass: null,
      message: expect.stringMatching(/^Connected: Proxmox VE 9\.1.*2 nodes, 2 online\.$/),
    });
  });

  it("Test names an unreachable server as unreachable", async () => {
    const id = await save({ ...tokenInput(), url: "https://pve.invalid:8006" });
    const body = await call<{
      testConnection: { ok: boolean; errorClass: string; message: string };
    }>(TEST, { id });
    expect(body.data?.testConnection).toMatchObject({ ok: false, errorClass: "unreachable" });
    expect(body.data?.testConnection.message).toContain("Could not reach the Proxmox server");
  });

  it("Test reports a wrong token secret as an authentication problem", async () => {
    const id = await save({ ...tokenInput(), secret: "wrong-secret" });
    const body = await call<{ testConnection: { errorClass: string } }>(TEST, { id });
    expect(body.data?.testConnection.errorClass).toBe("auth");
  });

  it("syncs the inventory with a token, sending only GET requests", async () => {
    const id = await save(tokenInput());
    const before = standin.requests.length;
    const body = await call<{ syncConnection: SyncRun }>(SYNC, { id });
    expect(body.data?.syncConnection).toMatchObject({
      outcome: "SUCCESS",
      counts: { seen: 4, added: 4 },
    });
    const methods = new Set(standin.requests.slice(before).map((r) => r.method));
    expect([...methods]).toEqual(["GET"]);
    const names = (
      await app.services.prisma.virtualMachine.findMany({ orderBy: { name: "asc" } })
    ).map((v) => v.name);
    expect(names).toEqual(expect.arrayContaining(["vm100", "vm101", "vm102", "vm103"]));
  });

  it("syncs with user and password through a ticket, whose login is the only POST", async () => {
    const id = await save({
      ...tokenInput(),
      username: DEFAULT_USER.username,
      tokenId: "",
      secret: DEFAULT_USER.password,
    });
    const before = standin.requests.length;
    const body = await call<{ syncConnection: SyncRun }>(SYNC, { id });
    expect(body.data?.syncConnection.outcome).toBe("SUCCESS");
    const writes = standin.requests.slice(before).filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api2/json/access/ticket"]);
  });

  it("a second, unchanged sync writes no inventory rows", async () => {
    const id = await save(tokenInput());
    await call(SYNC, { id });
    const body = await call<{ syncConnection: SyncRun }>(SYNC, { id });
    expect(body.data?.syncConnection.counts).toMatchObject({ unchanged: 4, rowsWritten: 0 });
  });

  it("a dry run stores a preview and writes no inventory", async () => {
    const id = await save(tokenInput());
    const body = await call<{ syncConnection: SyncRun }>(SYNC, { id, dry: true });
    expect(body.data?.syncConnection).toMatchObject({ isDryRun: true, counts: { added: 4 } });
    expect(body.data?.syncConnection.preview?.added).toHaveLength(4);
    const { id: rawId } = await app.services.prisma.connection.findFirstOrThrow({
      orderBy: { createdAt: "desc" },
    });
    expect(await app.services.prisma.virtualMachine.count({ where: { connectionId: rawId } })).toBe(
      0,
    );
  });

  it("refuses an http:// address that got into the database some other way, at request time", async () => {
    const id = await save(tokenInput());
    const row = await app.services.prisma.connection.findFirstOrThrow({
      orderBy: { createdAt: "desc" },
    });
    await app.services.prisma.connection.update({
      where: { id: row.id },
      data: { baseUrl: standin.url.replace("https:", "http:") },
    });
    const before = standin.requests.length;
    const body = await call<{ syncConnection: SyncRun }>(SYNC, { id });
    expect(body.data?.syncConnection).toMatchObject({ outcome: "FAILED", errorClass: "config" });
    expect(body.data?.syncConnection.message).toContain("only talks to hypervisors over https");
    expect(standin.requests.length).toBe(before);
  });
});
