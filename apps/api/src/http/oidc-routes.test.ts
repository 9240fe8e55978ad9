// docs/behaviour.md §12: single sign-on with OpenID Connect against a real provider (oidc-provider)
// driven through its own login and consent pages — the ID token's audience, issuer, signature,
// nonce and expiry are checked, a state is single-use, short-lived and bound to its browser, and
// access follows the provider's groups at every sign-in.
import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { parseEnvironmentProviders } from "../identity/provider-config.ts";
import { createUser } from "../services/users.ts";
import { browserFetch, CookieJar, signInAtProvider } from "../testing/oidc-browser.ts";
import {
  jwtPayload,
  type OidcTestProvider,
  startOidcTestProvider,
} from "../testing/oidc-provider.ts";
import { startTestApp, TEST_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { SSO_START_LIMIT, safeReturnTo } from "./oidc-routes.ts";

let app: TestApp;
let provider: OidcTestProvider;
let publicUrl: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const SLUGS = ["corp", "nojit", "off", "stored"];

beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  provider = await startOidcTestProvider({
    redirectUris: SLUGS.map((slug) => `${publicUrl}/auth/oidc/${slug}/callback`),
  });
  const common = {
    kind: "OIDC",
    settings: {
      issuer: provider.issuer,
      clientId: provider.clientId,
      scopes: "openid profile email groups",
    },
    secret: provider.clientSecret,
    groupMappings: [
      { group: "viewers", capabilities: ["VIEW_INVENTORY"] },
      { group: "operators", capabilities: ["VIEW_INVENTORY", "RUN_SYNC"] },
    ],
  };
  const environment = JSON.stringify([
    { ...common, slug: "corp", displayName: "Corp", createJustInTime: true },
    { ...common, slug: "nojit", displayName: "No JIT", createJustInTime: false },
    { ...common, slug: "off", displayName: "Off", createJustInTime: true, isEnabled: false },
  ]);
  app = await startTestApp({
    port,
    publicUrl,
    identityProviders: parseEnvironmentProviders(environment).providers,
  });
});

afterAll(async () => {
  await app?.close();
  await provider?.close();
});

beforeEach(() => {
  provider.tamperTokenResponse = undefined;
  provider.users.set("alice", {
    preferredUsername: "alice",
    email: "alice@example.com",
    groups: ["viewers"],
  });
});

/** Signs in at the provider and requests Hyperlens's callback; the browser's jar is returned. */
async function signIn(login: string, slug = "corp", returnTo = "/virtual-machines") {
  const jar = new CookieJar();
  const pending = await signInAtProvider(
    jar,
    `${publicUrl}/auth/oidc/${slug}/start?returnTo=${encodeURIComponent(returnTo)}`,
    login,
  );
  const res = await browserFetch(jar, pending.url);
  return { res, location: res.headers.get("location"), jar, pending };
}

async function viewerOf(jar: CookieJar) {
  const session = jar.get(publicUrl, SESSION_COOKIE);
  if (!session) return null;
  const res = await app.graphql<{ viewer: { username: string; capabilities: string[] } | null }>(
    "{ viewer { username capabilities } }",
    {},
    { cookie: `${SESSION_COOKIE}=${session}` },
  );
  return res.body.data?.viewer ?? null;
}

describe("signing in with OpenID Connect", () => {
  it("signs in through the provider's pages, maps groups and returns to the page asked for", async () => {
    const { res, location, jar } = await signIn("alice");
    expect(res.status).toBe(302);
    expect(location).toBe("/virtual-machines");
    expect(await viewerOf(jar)).toEqual({ username: "alice", capabilities: ["VIEW_INVENTORY"] });
    const user = await app.services.prisma.user.findFirstOrThrow({
      where: { identities: { some: { provider: "corp", subject: "alice" } } },
      include: { sessions: true },
    });
    expect(user.passwordHash).toBeNull();
    expect(user.sessions.map((s) => s.method)).toContain("corp");
    // The state cookie is gone once used.
    expect(jar.get(publicUrl, "__Host-hyperlens_sso")).toBeUndefined();
  });

  it("applies a group change at the next sign-in", async () => {
    expect(await viewerOf((await signIn("alice")).jar)).toMatchObject({
      capabilities: ["VIEW_INVENTORY"],
    });
    provider.users.set("alice", { preferredUsername: "alice", groups: ["operators"] });
    expect(await viewerOf((await signIn("alice")).jar)).toMatchObject({
      capabilities: ["VIEW_INVENTORY", "RUN_SYNC"],
    });
    provider.users.set("alice", { preferredUsername: "alice", groups: [] });
    expect(await viewerOf((await signIn("alice")).jar)).toMatchObject({ capabilities: [] });
  });

  it("refuses an ID token issued to another client (audience)", async () => {
    provider.tamperTokenResponse = async (body) => {
      const { sign } = await provider.signingKey();
      const claims = jwtPayload(body.id_token ?? "");
      return {
        ...body,
        id_token: await sign({ ...claims, aud: "other-client", azp: "other-client" }),
      };
    };
    const { location, jar } = await signIn("alice");
    expect(location).toBe("/?signInError=TOKEN_REJECTED");
    expect(jar.get(publicUrl, SESSION_COOKIE)).toBeUndefined();
  });

  it("refuses an ID token from another issuer, with another nonce, or expired", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const change of [
      { iss: "https://impostor.example" },
      { nonce: "not-the-one-we-sent" },
      { exp: now - 600, iat: now - 1200 },
    ]) {
      provider.tamperTokenResponse = async (body) => {
        const { sign } = await provider.signingKey();
        return { ...body, id_token: await sign({ ...jwtPayload(body.id_token ?? ""), ...change }) };
      };
      const { location, jar } = await signIn("alice");
      expect(location, JSON.stringify(change)).toBe("/?signInError=TOKEN_REJECTED");
      expect(jar.get(publicUrl, SESSION_COOKIE)).toBeUndefined();
    }
  });

  it("refuses a tampered ID token: altered payload, or signed with another key", async () => {
    provider.users.set("mallory", { preferredUsername: "mallory", groups: [] });
    // Altered on the way: the subject swapped, the provider's signature kept.
    provider.tamperTokenResponse = async (body) => {
      const [header, , signature] = (body.id_token ?? "").split(".");
      const payload = { ...jwtPayload(body.id_token ?? ""), sub: "alice", groups: ["operators"] };
      const altered = Buffer.from(JSON.stringify(payload)).toString("base64url");
      return { ...body, id_token: `${header}.${altered}.${signature}` };
    };
    const altered = await signIn("mallory");
    expect(altered.location).toBe("/?signInError=TOKEN_REJECTED");
    expect(altered.jar.get(publicUrl, SESSION_COOKIE)).toBeUndefined();

    // Re-signed by someone else under the provider's key id.
    const { generateKeyPair, SignJWT } = await import("jose");
    const { privateKey } = await generateKeyPair("RS256");
    provider.tamperTokenResponse = async (body) => {
      const { jwk } = await provider.signingKey();
      const payload = { ...jwtPayload(body.id_token ?? ""), sub: "alice" };
      const forged = await new SignJWT(payload)
        .setProtectedHeader({ alg: "RS256", kid: jwk.kid ?? "", typ: "JWT" })
        .sign(privateKey);
      return { ...body, id_token: forged };
    };
    const forged = await signIn("mallory");
    expect(forged.location).toBe("/?signInError=TOKEN_REJECTED");
    expect(forged.jar.get(publicUrl, SESSION_COOKIE)).toBeUndefined();
  });

  it("reads the groups from userinfo when the ID token leaves them out (docs/behaviour.md §12.46)", async () => {
    provider.users.set("alice", { preferredUsername: "alice", groups: ["operators"] });
    provider.tamperTokenResponse = async (body) => {
      const { sign } = await provider.signingKey();
      const { groups: _left, ...claims } = jwtPayload(body.id_token ?? "");
      return { ...body, id_token: await sign(claims) };
    };
    expect(await viewerOf((await signIn("alice")).jar)).toMatchObject({
      capabilities: ["VIEW_INVENTORY", "RUN_SYNC"],
    });
  });

  it("refuses an Entra ID group overage instead of taking every grant away (docs/behaviour.md §12.46)", async () => {
    provider.users.set("alice", { preferredUsername: "alice", groups: ["operators"] });
    expect(await viewerOf((await signIn("alice")).jar)).not.toBeNull();
    provider.tamperTokenResponse = async (body) => {
      const { sign } = await provider.signingKey();
      const { groups: _left, ...claims } = jwtPayload(body.id_token ?? "");
      return {
        ...body,
        id_token: await sign({
          ...claims,
          _claim_names: { groups: "src1" },
          _claim_sources: {
            src1: { endpoint: "https://graph.microsoft.com/v1.0/users/x/getMemberObjects" },
          },
        }),
      };
    };
    const { location, jar } = await signIn("alice");
    expect(location).toBe("/?signInError=CLAIMS_MISSING");
    expect(jar.get(publicUrl, SESSION_COOKIE)).toBeUndefined();
    const alice = await app.services.prisma.user.findFirstOrThrow({
      where: { identities: { some: { provider: "corp", subject: "alice" } } },
    });
    expect(alice.capabilities).toEqual(["VIEW_INVENTORY", "RUN_SYNC"]);
  });

  it("keeps signing in after the provider rotates its signing keys", async () => {
    expect(await viewerOf((await signIn("alice")).jar)).not.toBeNull();
    const before = (await provider.signingKey()).jwk.kid;
    await provider.rotateKeys();
    expect((await provider.signingKey()).jwk.kid).not.toBe(before);
    const after = await signIn("alice");
    expect(after.location).toBe("/virtual-machines");
    expect(await viewerOf(after.jar)).not.toBeNull();
  });
});

describe("the sign-in state", () => {
  it("is used once: the same callback again, from the same browser, is refused", async () => {
    const first = await signIn("alice");
    expect(first.location).toBe("/virtual-machines");
    // The browser's state cookie was cleared; a replay brings it back along with the link.
    const state = new URL(first.pending.url).searchParams.get("state") ?? "";
    const replay = await fetch(first.pending.url, {
      redirect: "manual",
      headers: { cookie: `__Host-hyperlens_sso=${state}` },
    });
    expect(replay.headers.get("location")).toBe("/?signInError=STATE_INVALID");
    expect(replay.headers.getSetCookie().join()).not.toContain(`${SESSION_COOKIE}=`);
  });

  it("expires after ten minutes", async () => {
    const jar = new CookieJar();
    const pending = await signInAtProvider(jar, `${publicUrl}/auth/oidc/corp/start`, "alice");
    await app.services.prisma.ssoSignInRequest.updateMany({
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await browserFetch(jar, pending.url);
    expect(res.headers.get("location")).toBe("/?signInError=STATE_EXPIRED");
    expect(jar.get(publicUrl, SESSION_COOKIE)).toBeUndefined();
  });

  it("finishes only in the browser that started it (a callback link sent to someone else)", async () => {
    provider.users.set("mallory", { preferredUsername: "mallory", groups: ["operators"] });
    const attacker = new CookieJar();
    const pending = await signInAtProvider(
      attacker,
      `${publicUrl}/auth/oidc/corp/start`,
      "mallory",
    );
    const victim = new CookieJar();
    const res = await browserFetch(victim, pending.url);
    expect(res.headers.get("location")).toBe("/?signInError=STATE_INVALID");
    expect(victim.get(publicUrl, SESSION_COOKIE)).toBeUndefined();
  });

  it("refuses an unknown state and a callback without one", async () => {
    const jar = new CookieJar();
    for (const query of ["?code=x&state=made-up", "?code=x"]) {
      const res = await browserFetch(jar, `${publicUrl}/auth/oidc/corp/callback${query}`);
      expect(res.headers.get("location")).toBe("/?signInError=STATE_INVALID");
    }
  });
});

describe("starting sign-ins", () => {
  it("is limited per client address, and a refused start stores nothing", async () => {
    // The limit's own counter, so the other tests' starts do not count here.
    await app.services.prisma.loginThrottle.deleteMany({});
    for (let i = 0; i < SSO_START_LIMIT.freeFailures; i += 1) {
      const res = await fetch(`${publicUrl}/auth/oidc/corp/start`, { redirect: "manual" });
      expect(res.headers.get("location")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\?/);
    }
    const pending = await app.services.prisma.ssoSignInRequest.count();
    const refused = await fetch(`${publicUrl}/auth/oidc/corp/start`, { redirect: "manual" });
    expect(refused.headers.get("location")).toBe("/?signInError=RATE_LIMITED");
    expect(await app.services.prisma.ssoSignInRequest.count()).toBe(pending);
    await app.services.prisma.loginThrottle.deleteMany({});
  });
});

describe("who may sign in", () => {
  it("refuses a disabled provider, at the start and at a callback it started before", async () => {
    const res = await browserFetch(new CookieJar(), `${publicUrl}/auth/oidc/off/start`);
    expect(res.headers.get("location")).toBe("/?signInError=PROVIDER_UNAVAILABLE");

    const admin = await app.signedInAs("oidc-admin", { isAdmin: true });
    const input = {
      slug: "stored",
      kind: "OIDC",
      displayName: "Stored",
      isEnabled: true,
      createJustInTime: true,
      groupMappings: [],
      oidc: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        scopes: "openid profile groups",
      },
      secret: provider.clientSecret,
    };
    const save = (mutation: string, isEnabled: boolean) =>
      app.graphql(
        `mutation($input: IdentityProviderInput!) { ${mutation}(input: $input) { __typename } }`,
        { input: { ...input, isEnabled } },
        { cookie: admin },
      );
    await save("createIdentityProvider", true);
    const listed = await app.graphql(
      "{ identityProviders { slug redirectUri } }",
      {},
      { cookie: admin },
    );
    expect(listed.body.data?.identityProviders).toContainEqual({
      slug: "stored",
      redirectUri: `${publicUrl}/auth/oidc/stored/callback`,
    });
    const jar = new CookieJar();
    const pending = await signInAtProvider(jar, `${publicUrl}/auth/oidc/stored/start`, "alice");
    await save("updateIdentityProvider", false);
    const callback = await browserFetch(jar, pending.url);
    expect(callback.headers.get("location")).toBe("/?signInError=PROVIDER_UNAVAILABLE");
    expect(jar.get(publicUrl, SESSION_COOKIE)).toBeUndefined();
  });

  it("refuses an unknown person when the provider does not create accounts", async () => {
    provider.users.set("newcomer", { preferredUsername: "newcomer", groups: ["operators"] });
    const { location, jar } = await signIn("newcomer", "nojit");
    expect(location).toBe("/?signInError=NO_ACCOUNT");
    expect(jar.get(publicUrl, SESSION_COOKIE)).toBeUndefined();
    expect(await app.services.prisma.user.count({ where: { username: "newcomer" } })).toBe(0);
  });

  it("does not hand a local account to someone with its name and e-mail", async () => {
    const local = await createUser(
      app.services.prisma,
      { username: "carol", password: TEST_PASSWORD, isAdmin: true },
      null,
    );
    provider.users.set("carol-at-idp", {
      preferredUsername: "carol",
      email: "carol@example.com",
      groups: [],
    });
    const { jar } = await signIn("carol-at-idp");
    expect(await viewerOf(jar)).toEqual({ username: "carol-2", capabilities: [] });
    expect(await app.services.prisma.userIdentity.count({ where: { userId: local.id } })).toBe(0);
  });

  it("refuses a disabled account", async () => {
    await signIn("alice");
    await app.services.prisma.user.updateMany({
      where: { identities: { some: { provider: "corp", subject: "alice" } } },
      data: { disabledAt: new Date() },
    });
    const { location, jar } = await signIn("alice");
    expect(location).toBe("/?signInError=ACCOUNT_DISABLED");
    expect(jar.get(publicUrl, SESSION_COOKIE)).toBeUndefined();
    await app.services.prisma.user.updateMany({
      where: { identities: { some: { provider: "corp", subject: "alice" } } },
      data: { disabledAt: null },
    });
  });
});

describe("where a sign-in returns to", () => {
  it("is a path on our own origin only", () => {
    const origin = "https://hyperlens.example";
    expect(safeReturnTo("/virtual-machines?q=1#x", origin)).toBe("/virtual-machines?q=1#x");
    for (const bad of [
      "https://evil.example/",
      "//evil.example/",
      "/\\evil.example",
      "/%0d%0aset-cookie",
      "javascript:alert(1)",
      "/auth/oidc/corp/start",
      "",
      null,
    ])
      expect(safeReturnTo(bad, origin), String(bad)).toBe(
        bad === "/%0d%0aset-cookie" ? "/%0d%0aset-cookie" : undefined,
      );
  });

  it("falls back to the app's root for an address elsewhere", async () => {
    const { location } = await signIn("alice", "corp", "//evil.example/steal");
    expect(location).toBe("/");
  });
});
