// In production an anonymous caller learns nothing about the schema beyond what it sends: no
// introspection, and no "Did you mean …?" in error messages. Signed-in users and API tokens keep
// introspection (codegen, IDEs); suggestions are off for everyone in production.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const SCHEMA = "{ __schema { queryType { name } types { name } } }";
const TYPE = '{ __type(name: "Query") { fields { name } } }';
/** A near miss of `isSetupRequired`, which graphql-js would suggest. */
const TYPO = "{ isSetupRequire }";

let production: TestApp;
let admin: string;
let development: TestApp;
beforeAll(async () => {
  ({ app: production, admin } = await startTestAppAsAdmin({ isProduction: true }));
  development = await startTestApp({ isProduction: false });
});
afterAll(async () => {
  await production?.close();
  await development?.close();
});

describe("in production", () => {
  it.each([
    ["__schema", SCHEMA],
    ["__type", TYPE],
  ])("an anonymous %s query is refused with UNAUTHENTICATED", async (_name, query) => {
    const res = await production.graphql(query);
    expect(res.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(JSON.stringify(res.body)).not.toContain("isSetupRequired");
    expect(res.body.data ?? null).toBeNull();
  });

  it("an anonymous caller still gets __typename and the fields it may use", async () => {
    const res = await production.graphql("{ __typename isSetupRequired }");
    expect(res.body).toEqual({ data: { __typename: "Query", isSetupRequired: false } });
  });

  it("a signed-in user may introspect", async () => {
    const res = await production.graphql<{ __schema: { queryType: { name: string } } }>(
      SCHEMA,
      {},
      { cookie: admin },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.__schema.queryType.name).toBe("Query");
  });

  it("an error message suggests no field names", async () => {
    const callers: Record<string, string>[] = [{}, { cookie: admin }];
    for (const headers of callers) {
      const res = await production.graphql(TYPO, {}, headers);
      const message = res.body.errors?.[0]?.message ?? "";
      expect(message).toContain('Cannot query field "isSetupRequire"');
      expect(message).not.toContain("Did you mean");
      expect(message).not.toContain("isSetupRequired");
    }
  });

  it("an enum value is not suggested either", async () => {
    const res = await production.graphql(
      'mutation { createApiToken(name: "t", capabilities: [VIEW_INVENTORYX]) { __typename } }',
      {},
      { cookie: admin },
    );
    expect(res.body.errors?.[0]?.message).toContain("VIEW_INVENTORYX");
    expect(res.body.errors?.[0]?.message).not.toContain("Did you mean");
  });
});

describe("outside production", () => {
  it("anonymous callers may introspect and get suggestions (GraphiQL)", async () => {
    expect((await development.graphql(SCHEMA)).body.errors).toBeUndefined();
    expect((await development.graphql(TYPO)).body.errors?.[0]?.message).toContain(
      'Did you mean "isSetupRequired"?',
    );
  });
});
