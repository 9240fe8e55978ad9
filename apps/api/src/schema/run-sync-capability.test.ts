// Starting a sync is a capability of its own (RUN_SYNC, issue 20): granted with view by default,
// removable from a user or a token, and checked before anything reaches the hypervisor.
import {
  createProxmoxStandin,
  generateCluster,
  type ProxmoxStandin,
} from "@hyperlens/standins/testing";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../services/users.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const CREATE_TOKEN = `mutation($caps: [Capability!]!) {
  createApiToken(name: "sync", capabilities: $caps) {
    __typename ... on MutationCreateApiTokenSuccess { data { token apiToken { capabilities } } }
  }
}`;
const SYNC = "mutation($id: ID!) { syncConnection(id: $id, wait: true) { id outcome } }";
const SYNC_ALL = "mutation { syncAll { id } }";

type Created = {
  createApiToken: { data?: { token: string; apiToken: { capabilities: string[] } } };
};

describe("the RUN_SYNC capability", () => {
  let app: TestApp;
  let admin: string;
  let standin: ProxmoxStandin;
  let connectionId: string;

  beforeAll(async () => {
    ({ app, admin } = await startTestAppAsAdmin());
    standin = await createProxmoxStandin({ cluster: generateCluster({ nodes: 1, guests: 3 }) });
    const connection = await saveStandinConnection(app.services, "PROXMOX", standin, "lab");
    connectionId = encodeGlobalID("Connection", connection.id);
  });
  afterAll(async () => {
    await standin?.close();
    await app?.close();
  });

  async function bearer(capabilities: string[]) {
    const res = await app.graphql<Created>(CREATE_TOKEN, { caps: capabilities }, { cookie: admin });
    const data = res.body.data?.createApiToken.data;
    if (!data) throw new Error(JSON.stringify(res.body));
    return {
      headers: { authorization: `Bearer ${data.token}` },
      capabilities: data.apiToken.capabilities,
    };
  }

  it("refuses syncConnection and syncAll to a view token without RUN_SYNC, before any request reaches the hypervisor", async () => {
    const viewOnly = await bearer(["VIEW_INVENTORY"]);
    const before = standin.stats.total;
    const one = await app.graphql(SYNC, { id: connectionId }, viewOnly.headers);
    const all = await app.graphql(SYNC_ALL, {}, viewOnly.headers);
    expect(one.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(all.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(standin.stats.total).toBe(before);
    // It still reads the inventory: only starting syncs was taken away.
    const read = await app.graphql("{ syncRuns { edges { node { id } } } }", {}, viewOnly.headers);
    expect(read.body.errors, JSON.stringify(read.body)).toBeUndefined();
  });

  it("lets a token with view and RUN_SYNC (the default pair) start a sync", async () => {
    const viewAndSync = await bearer(["VIEW_INVENTORY", "RUN_SYNC"]);
    expect(viewAndSync.capabilities).toEqual(["VIEW_INVENTORY", "RUN_SYNC"]);
    const res = await app.graphql<{ syncConnection: { id: string } }>(
      SYNC,
      { id: connectionId },
      viewAndSync.headers,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.syncConnection.id).toBeTruthy();
  });

  it("refuses a signed-in user whose RUN_SYNC was removed, and lets a default user sync", async () => {
    const withoutSync = await app.signedInAs("no-sync", { capabilities: ["VIEW_INVENTORY"] });
    const refused = await app.graphql(SYNC_ALL, {}, { cookie: withoutSync });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const byDefault = await app.signedInAs("default-viewer");
    const allowed = await app.graphql(SYNC_ALL, {}, { cookie: byDefault });
    expect(allowed.body.errors).toBeUndefined();
  });

  it("gives a user created without a choice of capabilities view and RUN_SYNC (the CLI's `user create`)", async () => {
    const user = await createUser(
      app.services.prisma,
      { username: "cli-made", password: "correct horse battery staple" },
      null,
    );
    expect(user.capabilities).toEqual(["VIEW_INVENTORY", "RUN_SYNC"]);
  });

  it("lists RUN_SYNC among the viewer's capabilities of an administrator", async () => {
    const res = await app.graphql<{ viewer: { capabilities: string[] } }>(
      "{ viewer { capabilities } }",
      {},
      { cookie: admin },
    );
    expect(res.body.data?.viewer.capabilities).toContain("RUN_SYNC");
  });
});
