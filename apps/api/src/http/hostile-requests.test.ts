// Regressions for what the mutation fuzzer found (mutation-fuzz.test.ts): each case once answered
// with a 5xx, an empty body, no error code, INTERNAL_SERVER_ERROR, or ran a cross-site request.
import { encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";
import { REQUEST_LIMITS } from "./limits.ts";

let app: TestApp;
let admin: string;
beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
});
afterAll(async () => app?.close());

const CREATE_USER =
  'mutation { createUser(username: "csrf-victim", password: "long enough password", capabilities: [], isAdmin: true) { __typename } }';

async function post(body: string, headers: Record<string, string>) {
  const res = await fetch(`${app.url}/graphql`, { method: "POST", headers, body });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

const codeOf = (text: string) =>
  (JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions
    ?.code;

describe("requests a browser sends cross-site without a preflight", () => {
  it.each([
    ["a form", "application/x-www-form-urlencoded", new URLSearchParams({ query: CREATE_USER })],
    ["text/plain", "text/plain", JSON.stringify({ query: CREATE_USER })],
  ])(
    "%s POST with the session cookie is refused with 403 and runs nothing",
    async (_name, type, body) => {
      const res = await post(String(body), { cookie: admin, "content-type": type });
      expect([res.status, codeOf(res.text)]).toEqual([403, "BAD_USER_INPUT"]);
      expect(res.text).not.toContain('"data"');
      const victim = await app.services.prisma.user.findUnique({
        where: { username: "csrf-victim" },
      });
      expect(victim).toBeNull();
    },
  );
});

describe("refusals before GraphQL runs answer JSON with a code", () => {
  it("an address and headers too large for Node's parser: 431", async () => {
    const res = await fetch(`${app.url}/graphql?query=${"x".repeat(20_000)}`, {
      headers: { "x-graphql-yoga-csrf": "1" },
    });
    expect(res.status).toBe(431);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(codeOf(await res.text())).toBe("BAD_REQUEST");
  });

  it("a body type no parser reads: 415", async () => {
    const res = await post("<query/>", { "content-type": "application/xml" });
    expect([res.status, res.type, codeOf(res.text)]).toEqual([
      415,
      "application/json",
      "BAD_REQUEST",
    ]);
  });

  it.each([
    ["variables", "{not json"],
    ["extensions", "{not json"],
  ])("a GET whose %s parameter is not JSON: 400", async (name, value) => {
    const params = new URLSearchParams({ query: "{ isSetupRequired }", [name]: value });
    const res = await fetch(`${app.url}/graphql?${params}`, {
      headers: { "x-graphql-yoga-csrf": "1", accept: "application/json" },
    });
    const text = await res.text();
    expect([res.status, codeOf(text)]).toEqual([400, "BAD_REQUEST"]);
    expect(text).toContain(`The ${name} parameter is not valid JSON.`);
  });

  it("a form POST whose variables field is not JSON: 400", async () => {
    const body = new URLSearchParams({ query: "{ isSetupRequired }", variables: "{not json" });
    const res = await post(String(body), {
      "content-type": "application/x-www-form-urlencoded",
      "x-graphql-yoga-csrf": "1",
    });
    expect([res.status, codeOf(res.text)]).toEqual([400, "BAD_REQUEST"]);
  });

  it("a body over the cap: 413", async () => {
    const res = await post(" ".repeat(REQUEST_LIMITS.maxBodyBytes + 1), {
      "content-type": "application/json",
    });
    expect([res.status, codeOf(res.text)]).toEqual([413, "REQUEST_ENTITY_TOO_LARGE"]);
  });
});

describe("errors graphql-js and the query limits raise carry a code", () => {
  it("a variable of the wrong type is BAD_USER_INPUT", async () => {
    const res = await app.graphql(
      "mutation($input: ProxmoxConnectionInput!) { saveProxmoxConnection(input: $input) { __typename } }",
      { input: 0 },
      { cookie: admin },
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("too many aliases is QUERY_TOO_COMPLEX", async () => {
    const aliases = Array.from(
      { length: REQUEST_LIMITS.maxAliases + 1 },
      (_, i) => `a${i}: signOut`,
    );
    const res = await app.graphql(`mutation { ${aliases.join(" ")} }`, {}, { cookie: admin });
    expect(res.body.errors?.[0]?.extensions?.code).toBe("QUERY_TOO_COMPLEX");
  });

  it("too many tokens is QUERY_TOO_COMPLEX", async () => {
    const res = await app.graphql(`{ ${"isSetupRequired ".repeat(REQUEST_LIMITS.maxTokens)} }`);
    expect(res.body.errors?.[0]?.extensions?.code).toBe("QUERY_TOO_COMPLEX");
  });
});

describe("input the database cannot take is bad input, not an internal error", () => {
  it("a global id whose id part is not a UUID", async () => {
    const res = await app.graphql(
      "mutation($id: ID!) { syncConnection(id: $id) { id } }",
      { id: encodeGlobalID("Connection", "not-a-uuid") },
      { cookie: admin },
    );
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "id" });
  });

  it("a date past the year 9999", async () => {
    const res = await app.graphql(
      'mutation($at: DateTime) { createApiToken(name: "t", capabilities: [], expiresAt: $at) { __typename } }',
      { at: "+010000-01-01T00:00:00.000Z" },
      { cookie: admin },
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it.each([
    ["a NUL character in a variable", { u: "a\u0000b" }],
    ["a lone surrogate in a variable", { u: "\ud800" }],
  ])("%s", async (_name, variables) => {
    const res = await app.graphql(
      'mutation($u: String!) { signIn(username: $u, password: "x") { __typename } }',
      variables,
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("a NUL character in a string literal", async () => {
    const res = await app.graphql(
      'mutation { signIn(username: "a\\u0000b", password: "x") { __typename } }',
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});
