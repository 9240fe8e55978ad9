import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, TEST_PASSWORD, type TestApp } from "../testing/test-app.ts";

const SIGN_IN = `mutation($u: String!, $p: String!) {
  signIn(username: $u, password: $p) {
    __typename
    ... on Error { message }
    ... on RateLimitedError { retryAt }
    ... on MutationSignInSuccess { data { username capabilities } }
  }
}`;

type SignIn = {
  signIn: { __typename: string; message?: string; retryAt?: string; data?: { username: string } };
};

describe("signing in", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    await app.signedInAs("alice", { capabilities: ["VIEW_INVENTORY"] });
  });
  afterAll(async () => app?.close());

  it("gives the same error for an unknown user and a wrong password", async () => {
    const unknown = await app.graphql<SignIn>(SIGN_IN, { u: "nobody", p: TEST_PASSWORD });
    const wrong = await app.graphql<SignIn>(SIGN_IN, { u: "alice", p: "wrong password!!" });
    expect(unknown.body.data?.signIn).toEqual({
      __typename: "InvalidCredentialsError",
      message: "The user name or password is not correct.",
    });
    expect(wrong.body.data?.signIn).toEqual(unknown.body.data?.signIn);
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });

  it("sets a __Host- session cookie that is HttpOnly, Secure and SameSite=Lax", async () => {
    const res = await app.graphql<SignIn>(SIGN_IN, { u: "alice", p: TEST_PASSWORD });
    expect(res.body.data?.signIn.data?.username).toBe("alice");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^__Host-hyperlens_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
  });

  it("stores the session only as a hash", async () => {
    const res = await app.graphql<SignIn>(SIGN_IN, { u: "alice", p: TEST_PASSWORD });
    const secret = (res.headers.get("set-cookie") ?? "").split(";")[0]?.split("=")[1] ?? "";
    const sessions = await app.services.prisma.session.findMany();
    expect(JSON.stringify(sessions)).not.toContain(secret);
  });

  it("gives a new session id at every sign-in and ends the one it replaces", async () => {
    const first = await app.signedInAs("carol");
    const res = await app.graphql<SignIn>(
      SIGN_IN,
      { u: "carol", p: TEST_PASSWORD },
      { cookie: first },
    );
    const second = res.headers.get("set-cookie")?.split(";")[0];
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const old = await app.graphql<{ viewer: unknown }>(
      "{ viewer { username } }",
      {},
      { cookie: first },
    );
    expect(old.body.data?.viewer).toBeNull();
  });

  it("answers viewer for a signed-in user and ends the session on signOut", async () => {
    const cookie = await app.signedInAs("dave", {
      capabilities: ["VIEW_INVENTORY", "MANAGE_PROXMOX"],
    });
    const me = await app.graphql<{
      viewer: { username: string; capabilities: string[]; kind: string };
    }>("{ viewer { username kind capabilities } }", {}, { cookie });
    expect(me.body.data?.viewer).toEqual({
      username: "dave",
      kind: "USER",
      capabilities: ["VIEW_INVENTORY", "MANAGE_PROXMOX"],
    });
    const out = await app.graphql("mutation { signOut }", {}, { cookie });
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    const after = await app.graphql<{ viewer: unknown }>("{ viewer { username } }", {}, { cookie });
    expect(after.body.data?.viewer).toBeNull();
  });

  it("makes a user name wait after five failures, even with the right password", async () => {
    await app.signedInAs("erin");
    for (let i = 0; i < 5; i++) await app.graphql(SIGN_IN, { u: "erin", p: `wrong password ${i}` });
    const locked = await app.graphql<SignIn>(SIGN_IN, { u: "erin", p: TEST_PASSWORD });
    expect(locked.body.data?.signIn.__typename).toBe("RateLimitedError");
    // A short wait, not the 15-minute lock anyone could once inflict on anyone.
    const retryAt = Date.parse(locked.body.data?.signIn.retryAt ?? "");
    expect(retryAt - Date.now()).toBeLessThanOrEqual(1_000);
    expect(locked.headers.get("set-cookie")).toBeNull();
  });
});

describe("first-run setup", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());

  const SETUP = `mutation($t: String!, $u: String!, $p: String!) {
    completeSetup(setupToken: $t, username: $u, password: $p) {
      __typename
      ... on ValidationError { message field }
      ... on MutationCompleteSetupSuccess { data { username isAdmin } }
    }
  }`;

  it("creates the first administrator with the printed token, once", async () => {
    const token = app.services.setupTokens.issue();
    expect((await app.graphql("{ isSetupRequired }")).body.data).toEqual({ isSetupRequired: true });
    const wrong = await app.graphql(SETUP, { t: "setup_wrong", u: "root", p: TEST_PASSWORD });
    expect(wrong.body.data?.completeSetup).toMatchObject({
      __typename: "ValidationError",
      field: "setupToken",
    });
    const weak = await app.graphql(SETUP, { t: token, u: "root", p: "short" });
    expect(weak.body.data?.completeSetup).toMatchObject({
      __typename: "ValidationError",
      field: "password",
    });
    const ok = await app.graphql(SETUP, { t: token, u: "root", p: TEST_PASSWORD });
    expect(ok.body.data?.completeSetup).toEqual({
      __typename: "MutationCompleteSetupSuccess",
      data: { username: "root", isAdmin: true },
    });
    expect(ok.headers.get("set-cookie")).toContain("__Host-hyperlens_session=");
    const again = await app.graphql(SETUP, { t: token, u: "root2", p: TEST_PASSWORD });
    expect(again.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await app.graphql("{ isSetupRequired }")).body.data).toEqual({
      isSetupRequired: false,
    });
  });
});
