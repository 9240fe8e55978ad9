import { SECRET_PLACEHOLDER } from "@hyperlens/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const SAVE_PROXMOX = `mutation($input: ProxmoxConnectionInput!) {
  saveProxmoxConnection(input: $input) {
    __typename
    ... on ValidationError { message field problems { field message } }
    ... on MutationSaveProxmoxConnectionSuccess { data { id name url username tokenId hasSecret verifyTls } }
  }
}`;
const SAVE_VCD = `mutation($input: VcdConnectionInput!) {
  saveVcdConnection(input: $input) { __typename ... on ValidationError { message field } }
}`;

type Saved = {
  saveProxmoxConnection: {
    __typename: string;
    field?: string;
    message?: string;
    problems?: { field: string; message: string }[];
    data?: { id: string; name: string; url: string; hasSecret: boolean; tokenId: string | null };
  };
};

const SECRET = "3f5e1c2a-pve-token-secret-value";

describe("Proxmox connections", () => {
  let app: TestApp;
  let admin: string;
  const base = {
    name: "lab",
    url: "https://pve.example:8006",
    username: "hyperlens@pve",
    tokenId: "inventory",
  };

  beforeAll(async () => {
    ({ app, admin } = await startTestAppAsAdmin());
  });
  afterAll(async () => app?.close());

  async function saveProxmox(input: Record<string, unknown>, cookie = admin) {
    const res = await app.graphql<Saved>(SAVE_PROXMOX, { input }, { cookie });
    return res.body.data?.saveProxmoxConnection ?? { __typename: JSON.stringify(res.body.errors) };
  }

  it("refuses an http:// address at save, saying https is required", async () => {
    const result = await saveProxmox({
      ...base,
      name: "plain",
      url: "http://pve.example:8006",
      secret: SECRET,
    });
    expect(result).toMatchObject({ __typename: "ValidationError", field: "url" });
    expect(result.message).toContain("only talks to hypervisors over https");
    expect(await app.services.prisma.connection.count({ where: { name: "plain" } })).toBe(0);
  });

  it("lists every problem of an input at once", async () => {
    const result = await saveProxmox({ name: "", url: "ftp://x", username: "nobody", secret: "" });
    expect(result.problems?.map((p) => p.field).sort()).toEqual([
      "name",
      "secret",
      "url",
      "username",
    ]);
  });

  it("stores the secret encrypted and never returns it", async () => {
    const saved = await saveProxmox({ ...base, name: "enc", secret: SECRET });
    expect(saved.data?.hasSecret).toBe(true);
    const row = await app.services.prisma.connectionSecret.findFirstOrThrow();
    expect(row.ciphertext).not.toContain(SECRET);
    const everything = await app.graphql(
      "{ connections { id name url username tokenId hasSecret secretUpdatedAt caPem verifyTls } }",
      {},
      { cookie: admin },
    );
    expect(JSON.stringify(everything.body)).not.toContain(SECRET);
    expect(JSON.stringify(saved)).not.toContain(SECRET);
    expect(app.logLines.join("\n")).not.toContain(SECRET);
  });

  it("keeps the stored secret on an edit with a blank or masked secret, and replaces it when given", async () => {
    const created = await saveProxmox({ ...base, name: "keep", secret: SECRET });
    const id = created.data?.id;
    const stored = async () => {
      const conn = await app.services.prisma.connection.findFirstOrThrow({
        where: { name: "keep" },
      });
      const row = await app.services.prisma.connectionSecret.findUniqueOrThrow({
        where: { connectionId: conn.id },
      });
      return app.services.secrets.open(row.ciphertext, conn.id);
    };
    await saveProxmox({ ...base, id, name: "keep", secret: "" });
    expect(await stored()).toBe(SECRET);
    await saveProxmox({ ...base, id, name: "keep", secret: SECRET_PLACEHOLDER });
    expect(await stored()).toBe(SECRET);
    await saveProxmox({ ...base, id, name: "keep" });
    expect(await stored()).toBe(SECRET);
    await saveProxmox({ ...base, id, name: "keep", secret: "a-new-secret" });
    expect(await stored()).toBe("a-new-secret");
  });

  it("refuses to edit a connection that does not exist instead of creating it", async () => {
    const missing = Buffer.from("Connection:00000000-0000-4000-8000-000000000000").toString(
      "base64",
    );
    const res = await app.graphql(
      SAVE_PROXMOX,
      { input: { ...base, id: missing, name: "ghost", secret: SECRET } },
      {
        cookie: admin,
      },
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(await app.services.prisma.connection.count({ where: { name: "ghost" } })).toBe(0);
  });

  it("hides connection settings from a viewer without the Proxmox capability", async () => {
    await saveProxmox({ ...base, name: "hidden", secret: SECRET });
    const viewer = await app.signedInAs("viewer", { capabilities: ["VIEW_INVENTORY"] });
    const res = await app.graphql<{ connections: Record<string, unknown>[] }>(
      "{ connections(kind: PROXMOX) { name url username hasSecret } }",
      {},
      { cookie: viewer },
    );
    const hidden = res.body.data?.connections.find((c) => c.name === "hidden");
    expect(hidden).toEqual({ name: "hidden", url: null, username: null, hasSecret: null });
  });

  it("refuses saving without the Proxmox capability", async () => {
    const director = await app.signedInAs("director-admin", {
      capabilities: ["VIEW_INVENTORY", "MANAGE_VCD"],
    });
    const res = await app.graphql(
      SAVE_PROXMOX,
      { input: { ...base, name: "nope", secret: SECRET } },
      {
        cookie: director,
      },
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("refuses a Director user name with a colon", async () => {
    const res = await app.graphql<{ saveVcdConnection: { field?: string; message?: string } }>(
      SAVE_VCD,
      {
        input: { name: "vcd", url: "https://vcd.example", username: "ad:min@org", secret: SECRET },
      },
      { cookie: admin },
    );
    expect(res.body.data?.saveVcdConnection).toMatchObject({ field: "username" });
    expect(res.body.data?.saveVcdConnection.message).toContain("colon");
  });

  it("deletes a connection with every inventory row it owns", async () => {
    const saved = await saveProxmox({ ...base, name: "doomed", secret: SECRET });
    const conn = await app.services.prisma.connection.findFirstOrThrow({
      where: { name: "doomed" },
    });
    const vm = await app.services.prisma.virtualMachine.create({
      data: { connectionId: conn.id, source: "PROXMOX", externalId: "100", name: "web" },
    });
    await app.services.prisma.nic.create({
      data: { vmId: vm.id, key: "net0", mac: "aa:bb:cc:dd:ee:ff" },
    });
    await app.services.prisma.ipAddress.create({
      data: { vmId: vm.id, address: "10.0.0.5", origin: "AGENT" },
    });
    await app.services.prisma.hypervisorNode.create({
      data: { connectionId: conn.id, externalId: "pve1", name: "pve1" },
    });
    await app.services.prisma.syncRun.create({
      data: { connectionId: conn.id, trigger: "MANUAL", correlationId: "c" },
    });
    const res = await app.graphql(
      "mutation($id: ID!) { deleteConnection(id: $id) }",
      { id: saved.data?.id },
      {
        cookie: admin,
      },
    );
    expect(res.body.data).toEqual({ deleteConnection: saved.data?.id });
    const p = app.services.prisma;
    const left = await Promise.all([
      p.connection.count({ where: { id: conn.id } }),
      p.virtualMachine.count({ where: { connectionId: conn.id } }),
      p.nic.count({ where: { vmId: vm.id } }),
      p.ipAddress.count({ where: { vmId: vm.id } }),
      p.hypervisorNode.count({ where: { connectionId: conn.id } }),
      p.syncRun.count({ where: { connectionId: conn.id } }),
      p.connectionSecret.count({ where: { connectionId: conn.id } }),
    ]);
    expect(left).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe("an API token limited to viewing", () => {
  let app: TestApp;
  let token: string;
  let connectionId: string;
  beforeAll(async () => {
    app = await startTestApp();
    const admin = await app.signedInAs("admin", { isAdmin: true });
    const saved = await app.graphql<Saved>(
      SAVE_PROXMOX,
      {
        input: {
          name: "lab",
          url: "https://pve.example:8006",
          username: "a@pve",
          tokenId: "t1",
          secret: SECRET,
        },
      },
      { cookie: admin },
    );
    connectionId = saved.body.data?.saveProxmoxConnection.data?.id ?? "";
    const created = await app.graphql<{ createApiToken: { data: { token: string } } }>(
      `mutation { createApiToken(name: "viewer", capabilities: [VIEW_INVENTORY]) { ... on MutationCreateApiTokenSuccess { data { token } } } }`,
      {},
      { cookie: admin },
    );
    token = created.body.data?.createApiToken.data.token ?? "";
  });
  afterAll(async () => app?.close());

  const asToken = (query: string, variables: Record<string, unknown> = {}) =>
    app.graphql(query, variables, { authorization: `Bearer ${token}` });

  it("sees connections but not their settings", async () => {
    const res = await asToken(
      "{ connections { name url username tokenId caPem hasSecret verifyTls } }",
    );
    expect(res.body.data).toEqual({
      connections: [
        {
          name: "lab",
          url: null,
          username: null,
          tokenId: null,
          caPem: null,
          hasSecret: null,
          verifyTls: null,
        },
      ],
    });
  });

  it.each([
    [
      "saveProxmoxConnection",
      SAVE_PROXMOX,
      { input: { name: "x", url: "https://x", username: "a@pve", secret: "s" } },
      "FORBIDDEN",
    ],
    ["deleteConnection", "mutation($id: ID!) { deleteConnection(id: $id) }", "id", "NOT_FOUND"],
    ["testConnection", "mutation($id: ID!) { testConnection(id: $id) { ok } }", "id", "NOT_FOUND"],
    [
      "createUser",
      'mutation { createUser(username: "x", password: "yyyyyyyyyyyyyyyy", capabilities: []) { __typename } }',
      {},
      "FORBIDDEN",
    ],
    [
      "createApiToken",
      'mutation { createApiToken(name: "x", capabilities: [VIEW_INVENTORY]) { __typename } }',
      {},
      "FORBIDDEN",
    ],
  ])("cannot run %s", async (_name, query, variables, code) => {
    const res = await asToken(
      query,
      variables === "id" ? { id: connectionId } : (variables as Record<string, unknown>),
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe(code);
    expect(await app.services.prisma.connection.count()).toBe(1);
  });
});

describe("vCenter connections", () => {
  it("refuses a user name with a colon", async () => {
    const app = await startTestApp();
    try {
      const admin = await app.signedInAs("admin", { isAdmin: true });
      const res = await app.graphql<{
        saveVcenterConnection: { field?: string; message?: string };
      }>(
        `mutation($input: VcenterConnectionInput!) { saveVcenterConnection(input: $input) { __typename ... on ValidationError { message field } } }`,
        {
          input: {
            name: "vc",
            url: "https://vc.example",
            username: "admin:x@vsphere.local",
            secret: SECRET,
          },
        },
        { cookie: admin },
      );
      expect(res.body.data?.saveVcenterConnection).toMatchObject({ field: "username" });
      expect(res.body.data?.saveVcenterConnection.message).toContain("colon");
    } finally {
      await app.close();
    }
  });
});
