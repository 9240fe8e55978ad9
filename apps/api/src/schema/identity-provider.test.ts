// docs/behaviour.md §12: identity providers through the API — the public sign-in list shows no
// address or client id, secrets are write-only and never re-pointed, the environment's providers
// are read-only, and password sign-in can be turned off for all but administrators.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnvironmentProviders } from "../identity/provider-config.ts";
import { findIdentityProvider } from "../identity/providers.ts";
import { startTestAppAsAdmin, TEST_PASSWORD, type TestApp } from "../testing/test-app.ts";

let app: TestApp;
let admin: string;

const ENVIRONMENT = JSON.stringify([
  {
    slug: "env-sso",
    kind: "OIDC",
    displayName: "Env SSO",
    settings: { issuer: "https://env.example/realms/x", clientId: "env-client" },
    secret: "env client secret",
  },
]);

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin({
    identityProviders: parseEnvironmentProviders(ENVIRONMENT).providers,
  }));
});

afterAll(async () => {
  await app?.close();
});

async function save(input: Record<string, unknown>, isNew: boolean, cookie = admin) {
  const mutation = isNew ? "createIdentityProvider" : "updateIdentityProvider";
  const success = isNew
    ? "MutationCreateIdentityProviderSuccess"
    : "MutationUpdateIdentityProviderSuccess";
  const res = await app.graphql<Record<string, Record<string, unknown>>>(
    `mutation($input: IdentityProviderInput!) {
      ${mutation}(input: $input) {
        __typename
        ... on ${success} { data { slug hasSecret isReadOnly } }
        ... on ValidationError { message field problems { field message } }
      }
    }`,
    { input },
    { cookie },
  );
  return { res, result: res.body.data?.[mutation] };
}

const corp = {
  slug: "corp",
  kind: "OIDC",
  displayName: "Corp",
  logoText: "C",
  isEnabled: true,
  createJustInTime: true,
  groupMappings: [{ group: "ops", capabilities: ["VIEW_INVENTORY"], connectionGroups: ["Lab"] }],
  oidc: { issuer: "https://sso.example/realms/corp", clientId: "hyperlens" },
  secret: "first client secret",
};

describe("identity providers through the API", () => {
  it("creates a provider whose secret is stored sealed and never returned", async () => {
    const { result } = await save(corp, true);
    expect(result).toMatchObject({ data: { slug: "corp", hasSecret: true, isReadOnly: false } });
    const row = await app.services.prisma.identityProvider.findUniqueOrThrow({
      where: { slug: "corp" },
    });
    expect(row.secretCiphertext).not.toContain("first client secret");
    const list = await app.graphql(
      "{ identityProviders { slug isReadOnly hasSecret oidc { issuer clientId groupsClaim } groupMappings { group capabilities connectionGroups isAdmin } } }",
      {},
      { cookie: admin },
    );
    expect(JSON.stringify(list.body)).not.toContain('secret"');
    expect(list.body.data?.identityProviders).toEqual([
      {
        slug: "env-sso",
        isReadOnly: true,
        hasSecret: true,
        oidc: {
          issuer: "https://env.example/realms/x",
          clientId: "env-client",
          groupsClaim: "groups",
        },
        groupMappings: [],
      },
      {
        slug: "corp",
        isReadOnly: false,
        hasSecret: true,
        oidc: {
          issuer: "https://sso.example/realms/corp",
          clientId: "hyperlens",
          groupsClaim: "groups",
        },
        groupMappings: [
          {
            group: "ops",
            capabilities: ["VIEW_INVENTORY"],
            connectionGroups: ["Lab"],
            isAdmin: false,
          },
        ],
      },
    ]);
  });

  it("keeps a blank secret on edit, but asks for it again when the issuer or client changes", async () => {
    const kept = await save({ ...corp, displayName: "Corp SSO", secret: "" }, false);
    expect(kept.result).toMatchObject({ data: { hasSecret: true } });
    const sources = {
      prisma: app.services.prisma,
      secrets: app.services.secrets,
      environmentProviders: [],
    };
    expect((await findIdentityProvider(sources, "corp"))?.secret()).toBe("first client secret");

    const repointed = await save(
      { ...corp, oidc: { ...corp.oidc, issuer: "https://attacker.example" }, secret: null },
      false,
    );
    expect(repointed.result).toMatchObject({ __typename: "ValidationError", field: "secret" });
    const row = await app.services.prisma.identityProvider.findUniqueOrThrow({
      where: { slug: "corp" },
    });
    expect(row.settings).toMatchObject({ issuer: "https://sso.example/realms/corp" });

    const withSecret = await save(
      { ...corp, oidc: { ...corp.oidc, issuer: "https://sso2.example" }, secret: "second" },
      false,
    );
    expect(withSecret.result).toMatchObject({ data: { hasSecret: true } });
    expect((await findIdentityProvider(sources, "corp"))?.secret()).toBe("second");
  });

  it("names every wrong field, and refuses an environment provider's slug", async () => {
    const { result } = await save(
      {
        ...corp,
        slug: "Bad Slug",
        logoText: "https://x",
        oidc: { issuer: "http://sso.example", clientId: "" },
        groupMappings: [{ group: "", capabilities: [] }],
      },
      true,
    );
    const fields = ((result?.problems ?? []) as { field: string }[]).map((p) => p.field).sort();
    expect(fields).toEqual([
      "groupMappings.0.group",
      "logoText",
      "settings.clientId",
      "settings.issuer",
      "slug",
    ]);
    const env = await save({ ...corp, slug: "env-sso" }, false);
    expect(env.result).toMatchObject({ __typename: "ValidationError", field: "slug" });
  });

  it("needs MANAGE_USERS to list or change providers", async () => {
    const viewer = await app.signedInAs("plain-viewer");
    const list = await app.graphql("{ identityProviders { slug } }", {}, { cookie: viewer });
    expect(list.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const { res } = await save({ ...corp, slug: "mine" }, true, viewer);
    expect(res.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await app.services.prisma.identityProvider.count({ where: { slug: "mine" } })).toBe(0);
  });

  it("offers enabled providers to anyone, by name and logo text only", async () => {
    await save({ ...corp, slug: "off", displayName: "Off", isEnabled: false }, true);
    const res = await app.graphql("{ signInProviders { slug kind displayName logoText } }");
    expect(res.body.data?.signInProviders).toEqual([
      { slug: "env-sso", kind: "OIDC", displayName: "Env SSO", logoText: null },
      { slug: "corp", kind: "OIDC", displayName: "Corp", logoText: "C" },
    ]);
    const fields = await app.graphql('{ __type(name: "SignInProvider") { fields { name } } }');
    expect(fields.body.data).toEqual({
      __type: {
        fields: [{ name: "displayName" }, { name: "kind" }, { name: "logoText" }, { name: "slug" }],
      },
    });
  });
});

describe("turning password sign-in off", () => {
  const signIn = (username: string) =>
    app.graphql(
      "mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { __typename } }",
      { u: username, p: TEST_PASSWORD },
    );

  it("refuses everyone's password but administrators', and says so", async () => {
    await app.signedInAs("pw-user");
    const off = await app.graphql(
      "mutation { setLocalPasswordSignIn(isEnabled: false) }",
      {},
      { cookie: admin },
    );
    expect(off.body.data).toEqual({ setLocalPasswordSignIn: false });
    const publicAnswer = await app.graphql("{ isLocalPasswordSignInEnabled }");
    expect(publicAnswer.body.data).toEqual({ isLocalPasswordSignInEnabled: false });

    const refused = await signIn("pw-user");
    expect(refused.body.errors?.[0]?.message).toMatch(/Password sign-in is turned off/);
    expect(refused.headers.get("set-cookie")).toBeNull();
    const asAdmin = await signIn("admin");
    expect(asAdmin.headers.get("set-cookie")).toContain("__Host-hyperlens_session=");

    await app.graphql(
      "mutation { setLocalPasswordSignIn(isEnabled: true) }",
      {},
      { cookie: admin },
    );
    expect((await signIn("pw-user")).headers.get("set-cookie")).toContain(
      "__Host-hyperlens_session=",
    );
  });

  it("may be changed only with MANAGE_USERS", async () => {
    const viewer = await app.signedInAs("pw-viewer");
    const res = await app.graphql(
      "mutation { setLocalPasswordSignIn(isEnabled: false) }",
      {},
      { cookie: viewer },
    );
    expect(res.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await app.graphql("{ isLocalPasswordSignInEnabled }")).body.data).toEqual({
      isLocalPasswordSignInEnabled: true,
    });
  });
});
