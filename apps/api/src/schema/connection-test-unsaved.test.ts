// Test before saving (issue 27): a connection form's input is tested as its save mutation would
// take it — the same checks, the same capability — and nothing is written.
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  type ProxmoxStandin,
} from "@hyperlens/standins/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const TEST_UNSAVED = `mutation($input: ProxmoxConnectionInput!) {
  testUnsavedProxmoxConnection(input: $input) {
    __typename
    ... on MutationTestUnsavedProxmoxConnectionSuccess { data { ok errorClass message } }
    ... on ValidationError { problems { field message } }
  }
}`;
const SAVE = `mutation($input: ProxmoxConnectionInput!) {
  saveProxmoxConnection(input: $input) { ... on MutationSaveProxmoxConnectionSuccess { data { id } } }
}`;

type Answer = {
  testUnsavedProxmoxConnection: {
    __typename: string;
    data?: { ok: boolean; errorClass: string | null; message: string };
    problems?: { field: string; message: string }[];
  } | null;
};

describe("testing a connection before it is saved", () => {
  let app: TestApp;
  let admin: string;
  let standin: ProxmoxStandin;
  let input: Record<string, unknown>;

  beforeAll(async () => {
    ({ app, admin } = await startTestAppAsAdmin());
    standin = await createProxmoxStandin();
    const [username, tokenId] = DEFAULT_TOKEN.id.split("!");
    input = {
      name: "unsaved pve",
      url: standin.url,
      caPem: standin.caPem,
      username,
      tokenId,
      secret: DEFAULT_TOKEN.secret,
    };
  });
  afterAll(async () => {
    await standin?.close();
    await app?.close();
  });

  const test = async (given: Record<string, unknown>, cookie = admin) =>
    app.graphql<Answer>(TEST_UNSAVED, { input: given }, { cookie });
  const written = async () => ({
    connections: await app.services.prisma.connection.count(),
    secrets: await app.services.prisma.connectionSecret.count(),
    audit: await app.services.prisma.auditLog.count({
      where: { action: { startsWith: "connection." } },
    }),
  });

  it("logs in with the entered values and writes nothing", async () => {
    const before = await written();
    const answer = await test(input);
    expect(answer.body.data?.testUnsavedProxmoxConnection?.data?.ok).toBe(true);
    expect(await written()).toEqual(before);
  });

  it("reports a refused secret as a failed Test, without echoing the secret", async () => {
    const answer = await test({ ...input, secret: "not-the-token-secret" });
    const result = answer.body.data?.testUnsavedProxmoxConnection?.data;
    expect(result?.ok).toBe(false);
    expect(result?.errorClass).toBe("auth");
    expect(JSON.stringify(answer.body)).not.toContain("not-the-token-secret");
  });

  it("refuses bad input with the save mutation's problems", async () => {
    const answer = await test({ ...input, url: "http://pve.example:8006", syncIntervalSeconds: 5 });
    const result = answer.body.data?.testUnsavedProxmoxConnection;
    expect(result?.__typename).toBe("ValidationError");
    expect(result?.problems?.map((p) => p.field).sort()).toEqual(["syncIntervalSeconds", "url"]);
  });

  it("uses a stored secret only where saving would keep it", async () => {
    const saved = await app.graphql<{ saveProxmoxConnection: { data: { id: string } } }>(
      SAVE,
      { input: { ...input, name: "saved pve" } },
      { cookie: admin },
    );
    const id = saved.body.data?.saveProxmoxConnection.data.id;
    const kept = await test({ ...input, id, name: "saved pve", secret: "" });
    expect(kept.body.data?.testUnsavedProxmoxConnection?.data?.ok).toBe(true);
    const moved = await test({
      ...input,
      id,
      name: "saved pve",
      secret: "",
      url: "https://elsewhere.example",
    });
    const problems = moved.body.data?.testUnsavedProxmoxConnection?.problems ?? [];
    expect(problems.map((p) => p.field)).toContain("secret");
  });

  it("needs the capability that manages the kind, as saving does", async () => {
    const vcdOnly = await app.signedInAs("vcd-admin", { capabilities: ["MANAGE_VCD"] });
    const answer = await test(input, vcdOnly);
    expect(answer.body.data?.testUnsavedProxmoxConnection ?? null).toBeNull();
    expect(answer.body.errors?.length).toBeGreaterThan(0);
  });
});
