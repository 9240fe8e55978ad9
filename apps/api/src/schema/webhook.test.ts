// Webhook endpoints over GraphQL (docs/behaviour.md §14.20, §14.21, §14.27, §14.28).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../testing/webhook-receiver.ts";

const FIELDS = "id url description eventTypes connectionIds isEnabled";
const CREATE = `mutation($input: WebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) {
    __typename
    ... on ValidationError { message field }
    ... on MutationCreateWebhookEndpointSuccess { data { secret endpoint { ${FIELDS} } } }
  }
}`;
const LIST = `{ webhookEndpoints { ${FIELDS} deliveries { eventType attempt outcome statusCode latencyMs error } } }`;

type Created = {
  createWebhookEndpoint: {
    __typename: string;
    message?: string;
    field?: string;
    data?: { secret: string; endpoint: { id: string; url: string; eventTypes: string[] } };
  };
};

let app: TestApp;
let admin: string;
let receiver: WebhookReceiver;
let secret = "";

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.signedInAs("admin", { isAdmin: true });
  receiver = await startWebhookReceiver(() => secret);
});
afterAll(async () => {
  await receiver?.close();
  await app?.close();
});

/**
 * Create and rotate answers are the responses meant to carry a signing secret (shown once), so
 * they are read past the suite's leak check; every other response is still checked.
 */
async function showingSecret<T>(
  on: TestApp,
  query: string,
  variables: Record<string, unknown>,
  cookie: string,
): Promise<{ body: { data?: T; errors?: { extensions?: { code?: string } }[] } }> {
  const res = await fetch(`${on.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ query, variables }),
  });
  return { body: await res.json() };
}

const create = (input: Record<string, unknown>, cookie = admin) =>
  showingSecret<Created>(app, CREATE, { input }, cookie);

describe("registering webhooks (docs/behaviour.md §14.20, §14.27, §14.28)", () => {
  it("is for administrators: a user manager or a connection manager is refused", async () => {
    const manager = await app.signedInAs("manager", {
      capabilities: ["VIEW_INVENTORY", "MANAGE_USERS", "MANAGE_PROXMOX"],
    });
    const res = await create({ url: "https://hooks.example/in" }, manager);
    expect(res.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const list = await app.graphql(LIST, {}, { cookie: manager });
    expect(list.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    // An administrator's API token holds every capability, yet is no administrator.
    const token = await app.graphql<{ createApiToken: { data: { token: string } } }>(
      `mutation { createApiToken(name: "ci", capabilities: [VIEW_INVENTORY, MANAGE_USERS, MANAGE_PROXMOX]) {
        ... on MutationCreateApiTokenSuccess { data { token } } } }`,
      {},
      { cookie: admin },
    );
    const bearer = `Bearer ${token.body.data?.createApiToken.data.token}`;
    const byToken = await app.graphql(LIST, {}, { authorization: bearer });
    expect(byToken.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await app.services.prisma.webhookEndpoint.count()).toBe(0);
  });

  it("the secret is made by the server, shown once, stored sealed, and each change is audited", async () => {
    const res = await create({
      url: receiver.url,
      description: "SIEM",
      eventTypes: ["VM_ADDED", "VM_REMOVED"],
    });
    const data = res.body.data?.createWebhookEndpoint.data;
    expect(data?.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    secret = data?.secret ?? "";
    const row = await app.services.prisma.webhookEndpoint.findFirstOrThrow();
    expect(row.secretCiphertext).not.toContain(secret);
    expect(JSON.stringify({ ...row, cursor: String(row.cursor) })).not.toContain(secret);
    // Never shown again: the endpoint type has no secret field at all.
    const list = await app.graphql(LIST, {}, { cookie: admin });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(
      (await app.graphql("{ webhookEndpoints { secret } }", {}, { cookie: admin })).body.errors?.[0]
        ?.extensions?.code,
    ).toBe("GRAPHQL_VALIDATION_FAILED");

    const id = data?.endpoint.id;
    const test = await app.graphql<{
      sendTestWebhook: { isDelivered: boolean; statusCode: number };
    }>(
      "mutation($id: ID!) { sendTestWebhook(id: $id) { isDelivered statusCode } }",
      { id },
      { cookie: admin },
    );
    expect(test.body.data?.sendTestWebhook).toEqual({ isDelivered: true, statusCode: 200 });
    expect(receiver.events.at(-1)?.type).toBe("WEBHOOK_TEST");

    const rotated = await showingSecret<{ rotateWebhookSecret: { secret: string } }>(
      app,
      "mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }",
      { id },
      admin,
    );
    const oldSecret = secret;
    secret = rotated.body.data?.rotateWebhookSecret.secret ?? "";
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(oldSecret);
    await app.graphql(
      "mutation($id: ID!) { sendTestWebhook(id: $id) { isDelivered } }",
      { id },
      { cookie: admin },
    );
    expect(receiver.badSignatures).toBe(0);
    expect(receiver.events.filter((e) => e.type === "WEBHOOK_TEST")).toHaveLength(2);

    const updated = await app.graphql<{ updateWebhookEndpoint: { data: { isEnabled: boolean } } }>(
      `mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: { isEnabled: false }) {
        ... on MutationUpdateWebhookEndpointSuccess { data { isEnabled } } } }`,
      { id },
      { cookie: admin },
    );
    expect(updated.body.data?.updateWebhookEndpoint.data.isEnabled).toBe(false);
    const log = await app.graphql<{ webhookEndpoints: { deliveries: { outcome: string }[] }[] }>(
      LIST,
      {},
      { cookie: admin },
    );
    expect(log.body.data?.webhookEndpoints[0]?.deliveries.map((d) => d.outcome)).toEqual([
      "DELIVERED",
      "DELIVERED",
    ]);
    await app.graphql(
      "mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }",
      { id },
      {
        cookie: admin,
      },
    );
    expect(await app.services.prisma.webhookEndpoint.count()).toBe(0);

    const audit = await app.services.prisma.auditLog.findMany({
      where: { targetType: "webhook" },
      orderBy: { at: "asc" },
    });
    expect(audit.map((a) => a.action)).toEqual([
      "webhook.create",
      "webhook.sendTest",
      "webhook.rotateSecret",
      "webhook.sendTest",
      "webhook.update",
      "webhook.delete",
    ]);
    expect(JSON.stringify(audit)).not.toContain(oldSecret);
    expect(JSON.stringify(audit)).not.toContain(secret);
  });
});

describe("webhook addresses (docs/behaviour.md §14.21)", () => {
  let strict: TestApp;
  let strictAdmin: string;
  beforeAll(async () => {
    strict = await startTestApp({ allowLoopbackTargets: false });
    strictAdmin = await strict.signedInAs("admin", { isAdmin: true });
  });
  afterAll(async () => strict?.close());

  it.each([
    ["http://hooks.example/in", /over https only/],
    ["https://127.0.0.1:9443/in", /is a loopback address/],
    ["https://169.254.169.254/latest", /is a link-local address/],
    ["https://user:pw@hooks.example/in", /no user name or password/],
    ["not a url", /is not a valid URL/],
  ])("without the opt-in, %s is refused on the url field", async (url, message) => {
    const res = await strict.graphql<Created>(CREATE, { input: { url } }, { cookie: strictAdmin });
    const result = res.body.data?.createWebhookEndpoint;
    expect(result).toMatchObject({ __typename: "ValidationError", field: "url" });
    expect(result?.message).toMatch(message);
    expect(await strict.services.prisma.webhookEndpoint.count()).toBe(0);
  });

  it("https to a public address is accepted", async () => {
    const res = await showingSecret<Created>(
      strict,
      CREATE,
      { input: { url: "https://192.0.2.10/in" } },
      strictAdmin,
    );
    expect(res.body.data?.createWebhookEndpoint.__typename).toBe(
      "MutationCreateWebhookEndpointSuccess",
    );
  });
});
