// The outbound address policy (docs/operations.md): connections may not point at loopback,
// link-local or unspecified addresses unless HYPERLENS_ALLOW_LOOPBACK_TARGETS is on — checked at
// save after resolving the name, and again by hyper-http on the address it connects to.
import { createServer, type Server } from "node:net";
import { createTestCertificates, sendJson, startHttpsServer } from "@hyperlens/hyper-http/testing";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";
import { testConnection } from "./connection-test.ts";

const SAVE = `mutation($input: ProxmoxConnectionInput!) {
  saveProxmoxConnection(input: $input) {
    __typename
    ... on ValidationError { message field }
    ... on MutationSaveProxmoxConnectionSuccess { data { id } }
  }
}`;

type Saved = { saveProxmoxConnection: { __typename: string; field?: string; message?: string } };

const LOGIN = { username: "hyperlens@pve", tokenId: "inventory", secret: "a-token-secret" };

const REFUSED = [
  "https://127.0.0.1:8006",
  "https://[::1]/",
  "https://2130706433/",
  "https://169.254.169.254/",
  "https://[::ffff:127.0.0.1]/",
  "https://[fe80::1]:8006",
  "https://0.0.0.0:8006",
  "https://localhost:8006",
];

async function save(app: TestApp, admin: string, name: string, url: string) {
  const res = await app.graphql<Saved>(SAVE, { input: { name, url, ...LOGIN } }, { cookie: admin });
  return res.body.data?.saveProxmoxConnection ?? { __typename: JSON.stringify(res.body.errors) };
}

/** A TCP listener on loopback that counts the connections reaching it. */
async function loopbackListener() {
  let seen = 0;
  const server: Server = createServer((socket) => {
    seen++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    connections: () => seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("by default (HYPERLENS_ALLOW_LOOPBACK_TARGETS unset)", () => {
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    expect(loadConfig({}).allowLoopbackTargets).toBe(false);
    ({ app, admin } = await startTestAppAsAdmin({ allowLoopbackTargets: false }));
  });
  afterAll(async () => app?.close());

  it.each(REFUSED)("saving %s is refused on the url field", async (url) => {
    const result = await save(app, admin, `refused ${url}`, url);
    expect(result).toMatchObject({ __typename: "ValidationError", field: "url" });
    expect(result.message).toMatch(/is a (loopback|link-local|unspecified) address/);
    expect(result.message).toContain("HYPERLENS_ALLOW_LOOPBACK_TARGETS");
    expect(await app.services.prisma.connection.count()).toBe(0);
  });

  it.each(["https://10.20.30.40:8006", "https://192.168.1.10:8006", "https://172.16.0.5/"])(
    "saving the private address %s is allowed: hypervisors live there",
    async (url) => {
      const result = await save(app, admin, `private ${url}`, url);
      expect(result.__typename).toBe("MutationSaveProxmoxConnectionSuccess");
    },
  );

  it("Test refuses to connect to a row that points at loopback anyway, and the listener sees no connection", async () => {
    // A row written before this rule, or a name that re-resolved to loopback since its save.
    const listener = await loopbackListener();
    try {
      const row = await app.services.prisma.connection.create({
        data: {
          kind: "PROXMOX",
          name: "rebound",
          baseUrl: `https://127.0.0.1:${listener.port}`,
          username: LOGIN.username,
          tokenId: LOGIN.tokenId,
        },
      });
      const sealed = app.services.secrets.seal(LOGIN.secret, row.id);
      await app.services.prisma.connectionSecret.create({
        data: { connectionId: row.id, ...sealed },
      });
      const result = await testConnection(app.services, row.id);
      expect(result).toMatchObject({ ok: false, errorClass: "config" });
      expect(result.message).toMatch(
        /Refused to connect to the Proxmox server: .*loopback address/,
      );
      expect(listener.connections()).toBe(0);
    } finally {
      await listener.close();
    }
  });
});

describe("with HYPERLENS_ALLOW_LOOPBACK_TARGETS=1 (labs, demo, the test suite)", () => {
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    expect(loadConfig({ HYPERLENS_ALLOW_LOOPBACK_TARGETS: "1" }).allowLoopbackTargets).toBe(true);
    expect(loadConfig({ HYPERLENS_DEMO: "1" }).allowLoopbackTargets).toBe(true);
    ({ app, admin } = await startTestAppAsAdmin({ allowLoopbackTargets: true }));
  });
  afterAll(async () => app?.close());

  it("saving a loopback address is allowed", async () => {
    for (const url of ["https://127.0.0.1:8006", "https://localhost:8006"]) {
      const result = await save(app, admin, `lab ${url}`, url);
      expect(result.__typename, url).toBe("MutationSaveProxmoxConnectionSuccess");
    }
  });

  it("Test names the class and the status of an answer that is no hypervisor's, not its text", async () => {
    const certs = await createTestCertificates();
    const banner = "internal-admin-console 4.2 default login admin/admin";
    const target = await startHttpsServer(certs.caSigned, (_req, res) =>
      sendJson(res, 403, { message: banner }, "Console Says Hello"),
    );
    try {
      const res = await app.graphql<{ saveProxmoxConnection: { data?: { id: string } } }>(
        SAVE,
        { input: { name: "banner", url: target.url, caPem: certs.ca.cert, ...LOGIN } },
        { cookie: admin },
      );
      const id = res.body.data?.saveProxmoxConnection.data?.id;
      expect(id).toBeDefined();
      const tested = await app.graphql<{
        testConnection: { ok: boolean; errorClass: string; message: string };
      }>(
        "mutation($id: ID!) { testConnection(id: $id) { ok errorClass message } }",
        { id: id ?? encodeGlobalID("Connection", "none") },
        { cookie: admin },
      );
      const result = tested.body.data?.testConnection;
      expect(result).toMatchObject({ ok: false, errorClass: "permission" });
      expect(result?.message).toContain("HTTP 403");
      expect(result?.message).not.toMatch(/console|admin\/admin/i);
      expect(target.requests.length).toBeGreaterThan(0);
    } finally {
      await target.close();
    }
  });
});
