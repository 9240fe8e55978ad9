import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const CREATE = `mutation($name: String!, $caps: [Capability!]!) {
  createApiToken(name: $name, capabilities: $caps) {
    __typename
    ... on ValidationError { message field }
    ... on MutationCreateApiTokenSuccess { data { token apiToken { id prefix capabilities } } }
  }
}`;

type Created = {
  createApiToken: {
    __typename: string;
    field?: string;
    data?: { token: string; apiToken: { id: string; prefix: string; capabilities: string[] } };
  };
};

describe("API tokens", () => {
  let app: TestApp;
  let adminCookie: string;
  beforeAll(async () => {
    ({ app, admin: adminCookie } = await startTestAppAsAdmin());
  });
  afterAll(async () => app?.close());

  async function createToken(capabilities: string[], cookie = adminCookie) {
    const res = await app.graphql<Created>(CREATE, { name: "ci", caps: capabilities }, { cookie });
    const data = res.body.data?.createApiToken.data;
    if (!data) throw new Error(JSON.stringify(res.body));
    return data;
  }

  it("shows the token once and stores only its hash", async () => {
    const { token, apiToken } = await createToken(["VIEW_INVENTORY"]);
    expect(token).toMatch(/^hlk_/);
    expect(token.startsWith(apiToken.prefix)).toBe(true);
    const rows = await app.services.prisma.apiToken.findMany();
    expect(JSON.stringify(rows)).not.toContain(token);
    const listed = await app.graphql("{ apiTokens { name prefix } }", {}, { cookie: adminCookie });
    expect(JSON.stringify(listed.body)).not.toContain(token);
  });

  it("is accepted as a Bearer token with exactly its capabilities", async () => {
    const { token } = await createToken(["VIEW_INVENTORY"]);
    const res = await app.graphql<{ viewer: { kind: string; capabilities: string[] } }>(
      "{ viewer { kind capabilities } }",
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(res.body.data?.viewer).toEqual({ kind: "API_TOKEN", capabilities: ["VIEW_INVENTORY"] });
  });

  it("refuses a field whose capability the token lacks", async () => {
    const viewOnly = await createToken(["VIEW_INVENTORY"]);
    const refused = await app.graphql(
      "{ users { username } }",
      {},
      { authorization: `Bearer ${viewOnly.token}` },
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(refused.body.data).toBeNull();
    const manager = await createToken(["MANAGE_USERS"]);
    const allowed = await app.graphql<{ users: { username: string }[] }>(
      "{ users { username } }",
      {},
      { authorization: `Bearer ${manager.token}` },
    );
    expect(allowed.body.errors).toBeUndefined();
    expect(allowed.body.data?.users.map((u) => u.username)).toContain("admin");
  });

  it("cannot read a guest or a connection through node(id) without a capability to view them", async () => {
    const connection = await seedConnection(app.services, "PROXMOX", "scoped", [
      neutralVm("4242", { name: "secret-guest" }),
    ]);
    const listed = await app.graphql<{ virtualMachines: { edges: { node: { id: string } }[] } }>(
      '{ virtualMachines(filter: { search: "secret-guest" }) { edges { node { id } } } }',
      {},
      { cookie: adminCookie },
    );
    const vmId = listed.body.data?.virtualMachines.edges[0]?.node.id;
    const connections = await app.graphql<{ connections: { id: string; name: string }[] }>(
      "{ connections { id name } }",
      {},
      { cookie: adminCookie },
    );
    const connectionId = connections.body.data?.connections.find(
      (c) => c.name === connection.name,
    )?.id;
    if (!vmId || !connectionId) throw new Error("seeding failed");
    const usersOnly = await createToken(["MANAGE_USERS"]);
    for (const id of [vmId, connectionId]) {
      const res = await app.graphql(
        `query($id: ID!) { node(id: $id) { __typename
          ... on VirtualMachine { name state } ... on Connection { name kind } } }`,
        { id },
        { authorization: `Bearer ${usersOnly.token}` },
      );
      expect(res.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
      expect(JSON.stringify(res.body)).not.toMatch(/secret-guest|scoped|PROXMOX|RUNNING/);
    }
  });

  it("cannot hold capabilities its creator lacks", async () => {
    const cookie = await app.signedInAs("viewer-only", { capabilities: ["VIEW_INVENTORY"] });
    const res = await app.graphql<Created>(
      CREATE,
      { name: "x", caps: ["MANAGE_USERS"] },
      { cookie },
    );
    expect(res.body.data?.createApiToken).toMatchObject({
      __typename: "ValidationError",
      field: "capabilities",
    });
  });

  it("cannot create more tokens", async () => {
    const { token } = await createToken(["VIEW_INVENTORY", "MANAGE_USERS"]);
    const res = await app.graphql(
      CREATE,
      { name: "child", caps: ["VIEW_INVENTORY"] },
      {
        authorization: `Bearer ${token}`,
      },
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("is refused once revoked", async () => {
    const { token, apiToken } = await createToken(["VIEW_INVENTORY"]);
    const auth = { authorization: `Bearer ${token}` };
    expect((await app.graphql("{ viewer { kind } }", {}, auth)).body.data).toEqual({
      viewer: { kind: "API_TOKEN" },
    });
    const revoked = await app.graphql(
      "mutation($id: ID!) { revokeApiToken(id: $id) }",
      { id: apiToken.id },
      {
        cookie: adminCookie,
      },
    );
    expect(revoked.body.data).toEqual({ revokeApiToken: true });
    expect((await app.graphql("{ viewer { kind } }", {}, auth)).body.data).toEqual({
      viewer: null,
    });
    const forbidden = await app.graphql("{ users { username } }", {}, auth);
    expect(forbidden.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("is revoked only by its creator or a user manager, by the list's rule", async () => {
    const REVOKE = "mutation($id: ID!) { revokeApiToken(id: $id) }";
    const { apiToken } = await createToken(["VIEW_INVENTORY"]);
    const stranger = await app.signedInAs("token-stranger", { capabilities: ["RUN_SYNC"] });
    const refused = await app.graphql(REVOKE, { id: apiToken.id }, { cookie: stranger });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const row = await app.services.prisma.apiToken.findFirst({
      where: { prefix: apiToken.prefix },
    });
    expect(row?.revokedAt).toBeNull();

    const manager = await app.signedInAs("token-manager", { capabilities: ["MANAGE_USERS"] });
    const revoked = await app.graphql(REVOKE, { id: apiToken.id }, { cookie: manager });
    expect(revoked.body.data).toEqual({ revokeApiToken: true });
  });

  it("records when it was last used", async () => {
    const { token, apiToken } = await createToken(["VIEW_INVENTORY"]);
    await app.graphql("{ viewer { kind } }", {}, { authorization: `Bearer ${token}` });
    const row = await app.services.prisma.apiToken.findFirstOrThrow({
      where: { prefix: apiToken.prefix },
    });
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("does not fall back to the session cookie when a bad token is sent", async () => {
    const res = await app.graphql<{ viewer: unknown }>(
      "{ viewer { username } }",
      {},
      {
        cookie: adminCookie,
        authorization: "Bearer hlk_not-a-token",
      },
    );
    expect(res.body.data?.viewer).toBeNull();
  });
});
