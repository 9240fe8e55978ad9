// Invalid input on every mutation is answered in one of the two documented channels, naming the
// field: a typed ValidationError result, or an error with code BAD_USER_INPUT and `field`.
// (completeSetup's ValidationError is tested in auth.test.ts; signIn answers every bad input with
// InvalidCredentialsError on purpose, so it reveals nothing.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

let app: TestApp;
let admin: string;
beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
});
afterAll(async () => app?.close());

const bad = "not-a-global-id";
const connection = (kind: string) =>
  `mutation($input: ${kind}ConnectionInput!) { save${kind}Connection(input: $input) { __typename ... on ValidationError { field } } }`;

const CASES: [string, string, Record<string, unknown>, string][] = [
  [
    "saveProxmoxConnection",
    connection("Proxmox"),
    { input: { name: "x", url: "http://x", username: "a@pve", secret: "s" } },
    "url",
  ],
  [
    "saveVcdConnection",
    connection("Vcd"),
    { input: { name: "x", url: "https://x", username: "a:b@org", secret: "s" } },
    "username",
  ],
  [
    "saveVcenterConnection",
    connection("Vcenter"),
    { input: { name: "", url: "https://x", username: "a", secret: "s" } },
    "name",
  ],
  [
    "createApiToken",
    'mutation { createApiToken(name: "", capabilities: [VIEW_INVENTORY]) { __typename ... on ValidationError { field } } }',
    {},
    "name",
  ],
  [
    "createUser",
    'mutation { createUser(username: "a b", password: "long enough pass", capabilities: []) { __typename ... on ValidationError { field } } }',
    {},
    "username",
  ],
  ["deleteConnection", "mutation($id: ID!) { deleteConnection(id: $id) }", { id: bad }, "id"],
  ["testConnection", "mutation($id: ID!) { testConnection(id: $id) { ok } }", { id: bad }, "id"],
  ["syncConnection", "mutation($id: ID!) { syncConnection(id: $id) { id } }", { id: bad }, "id"],
  ["revokeApiToken", "mutation($id: ID!) { revokeApiToken(id: $id) }", { id: bad }, "id"],
];

describe("invalid input on every mutation", () => {
  it.each(CASES)("%s names the field", async (_name, query, variables, field) => {
    const res = await app.graphql<Record<string, { __typename: string; field?: string }>>(
      query,
      variables,
      { cookie: admin },
    );
    const typed = res.body.data ? Object.values(res.body.data)[0] : undefined;
    if (typed && typed.__typename === "ValidationError") {
      expect(typed.field).toBe(field);
      return;
    }
    const error = res.body.errors?.[0];
    expect(error?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field });
  });
});
