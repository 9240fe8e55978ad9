// A connection's Test warns when its token cannot read the guest agent on its Proxmox version
// (docs/behaviour.md §10.11): every VM's addresses, hostname and OS would be missing.
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  type ProxmoxStandin,
  type PveVersion,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const SAVE = `mutation($input: ProxmoxConnectionInput!) {
  saveProxmoxConnection(input: $input) { ... on MutationSaveProxmoxConnectionSuccess { data { id } } }
}`;
const TEST = "mutation($id: ID!) { testConnection(id: $id) { ok message } }";
const WARNING = "query($id: ID!) { connection(id: $id) { privilegeWarning } }";

describe("the Test warning about the agent privilege", () => {
  let app: TestApp;
  let admin: string;
  const standins: ProxmoxStandin[] = [];

  beforeAll(async () => {
    ({ app, admin } = await startTestAppAsAdmin());
  });
  afterAll(async () => {
    for (const standin of standins) await standin.close();
    await app?.close();
  });

  async function test(version: PveVersion) {
    const standin = await createProxmoxStandin({ version });
    standins.push(standin);
    const [username, tokenId] = DEFAULT_TOKEN.id.split("!");
    const input = {
      name: `pve-${version}`,
      url: standin.url,
      verifyTls: true,
      caPem: standin.caPem,
      username,
      tokenId,
      secret: DEFAULT_TOKEN.secret,
    };
    const saved = await app.graphql<{
      saveProxmoxConnection: { data: { id: string } };
    }>(SAVE, { input }, { cookie: admin });
    const id = saved.body.data?.saveProxmoxConnection.data.id;
    const tested = await app.graphql<{ testConnection: { ok: boolean; message: string } }>(
      TEST,
      { id },
      { cookie: admin },
    );
    const stored = await app.graphql<{ connection: { privilegeWarning: string | null } }>(
      WARNING,
      { id },
      { cookie: admin },
    );
    return {
      ...tested.body.data?.testConnection,
      privilegeWarning: stored.body.data?.connection.privilegeWarning,
    };
  }

  it("warns an auditor token on Proxmox VE 8, which checks VM.Monitor for agent reads", async () => {
    const result = await test("8.4");
    expect(result.ok).toBe(true);
    expect(result.privilegeWarning).toContain("lack VM.Monitor");
    expect(result.message).toContain("Warning: These credentials lack VM.Monitor");
  });

  it("is silent for an auditor token on Proxmox VE 9, whose PVEAuditor holds VM.GuestAgent.Audit", async () => {
    const result = await test("9.1");
    expect(result.ok).toBe(true);
    expect(result.privilegeWarning).toBeNull();
  });
});
