// Two-factor through the real server (docs/behaviour.md §12.30–12.26): the second sign-in step,
// the session that may only enrol while the administrator requires two-factor, and the
// administrator's switch and reset.
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, TEST_PASSWORD, type TestApp } from "../testing/test-app.ts";

const STEP_MS = 30_000;

const SIGN_IN = `mutation($u: String!, $p: String!) {
  signIn(username: $u, password: $p) {
    __typename
    ... on Error { message }
    ... on TwoFactorRequired { challenge expiresAt }
    ... on MutationSignInSuccess { data { username } }
  }
}`;
const COMPLETE = `mutation($c: String!, $code: String, $r: String) {
  completeSignIn(challenge: $c, code: $code, recoveryCode: $r) {
    __typename
    ... on Error { message }
    ... on MutationCompleteSignInSuccess { data { username isTwoFactorEnabled mustEnrolTwoFactor } }
  }
}`;
const BEGIN = `mutation($p: String!) { beginTwoFactorEnrolment(currentPassword: $p) {
  __typename ... on Error { message }
  ... on MutationBeginTwoFactorEnrolmentSuccess { data { uri secret qrCodeSvg } }
} }`;
const CONFIRM = `mutation($code: String!) { confirmTwoFactor(code: $code) {
  __typename ... on Error { message } ... on MutationConfirmTwoFactorSuccess { data }
} }`;
const VIEWER = "{ viewer { username isAdmin capabilities mustEnrolTwoFactor isTwoFactorEnabled } }";
const SET_REQUIRED = `mutation($r: Boolean!) { setTwoFactorRequired(required: $r) {
  __typename ... on Error { message } ... on MutationSetTwoFactorRequiredSuccess { data }
} }`;

// The tests read the answers' shapes they assert on; typing each document adds nothing here.
// biome-ignore lint/suspicious/noExplicitAny: response data is checked by the assertions
type Data = Record<string, any>;
type Body = { data?: Data; errors?: { message: string; extensions?: { code?: string } }[] };

const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

let app: TestApp;
let admin: string;

/**
 * The enrolment answer is the one response meant to carry the TOTP secret (shown while enrolling
 * only), so it is read past the suite's leak check; every other response is still checked.
 */
async function enrol(cookie: string): Promise<{ secret: string; uri: string; qrCodeSvg: string }> {
  const res = await fetch(`${app.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ query: BEGIN, variables: { p: TEST_PASSWORD } }),
  });
  const body = (await res.json()) as Body;
  const data = body.data?.beginTwoFactorEnrolment?.data;
  if (!data) throw new Error(`enrolment failed: ${JSON.stringify(body)}`);
  return data;
}

async function gql(query: string, variables: Record<string, unknown> = {}, cookie?: string) {
  const res = await app.graphql(query, variables, cookie ? { cookie } : {});
  return { ...res, body: res.body as Body };
}

/** A user with two-factor on, signed in: its cookie and secret. */
async function enrolledUser(username: string, options: { isAdmin?: boolean } = {}) {
  const cookie = await app.signedInAs(username, { isAdmin: options.isAdmin ?? false });
  const { secret } = await enrol(cookie);
  const before = Date.now() - STEP_MS;
  const confirmed = await gql(CONFIRM, { code: codeAt(secret, before) }, cookie);
  const codes = confirmed.body.data?.confirmTwoFactor?.data as string[] | undefined;
  if (!codes) throw new Error(`confirm failed: ${JSON.stringify(confirmed.body)}`);
  return { cookie, secret, recoveryCodes: codes };
}

const cookieOf = (headers: Headers) => headers.get("set-cookie")?.split(";")[0];

beforeAll(async () => {
  app = await startTestApp();
  admin = (await enrolledUser("admin", { isAdmin: true })).cookie;
});
afterAll(async () => app?.close());

describe("the second sign-in step", () => {
  it("a right password answers TwoFactorRequired without a cookie; the code then signs in", async () => {
    const { secret } = await enrolledUser("alice");
    const first = await gql(SIGN_IN, { u: "alice", p: TEST_PASSWORD });
    const step = first.body.data?.signIn;
    expect(step).toMatchObject({
      __typename: "TwoFactorRequired",
      message: "Enter the code from your authenticator app to finish signing in.",
    });
    expect(step.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.headers.get("set-cookie")).toBeNull();

    const done = await gql(COMPLETE, { c: step.challenge, code: codeAt(secret, Date.now()) });
    expect(done.body.data?.completeSignIn).toEqual({
      __typename: "MutationCompleteSignInSuccess",
      data: { username: "alice", isTwoFactorEnabled: true, mustEnrolTwoFactor: false },
    });
    const cookie = cookieOf(done.headers);
    expect(cookie).toMatch(/^__Host-hyperlens_session=/);
    const viewer = await gql(VIEWER, {}, cookie);
    expect(viewer.body.data?.viewer.username).toBe("alice");
  });

  it("unknown users and wrong passwords answer exactly as without two-factor", async () => {
    await enrolledUser("bob");
    const unknown = await gql(SIGN_IN, { u: "nobody", p: TEST_PASSWORD });
    const wrong = await gql(SIGN_IN, { u: "bob", p: "wrong password!!" });
    expect(unknown.body.data?.signIn).toEqual({
      __typename: "InvalidCredentialsError",
      message: "The user name or password is not correct.",
    });
    expect(wrong.body.data?.signIn).toEqual(unknown.body.data?.signIn);
  });

  it("a wrong code, a used challenge and a made-up one answer typed errors and no cookie", async () => {
    const { secret } = await enrolledUser("carol");
    const challenge = (await gql(SIGN_IN, { u: "carol", p: TEST_PASSWORD })).body.data?.signIn
      ?.challenge;
    const wrong = await gql(COMPLETE, { c: challenge, code: "12345x" });
    expect(wrong.body.data?.completeSignIn).toEqual({
      __typename: "InvalidTwoFactorCodeError",
      message: "The code is not correct.",
    });
    expect(wrong.headers.get("set-cookie")).toBeNull();
    expect(
      (await gql(COMPLETE, { c: challenge, code: codeAt(secret, Date.now()) })).body.data
        ?.completeSignIn.__typename,
    ).toBe("MutationCompleteSignInSuccess");
    const again = await gql(COMPLETE, { c: challenge, code: codeAt(secret, Date.now()) });
    expect(again.body.data?.completeSignIn.__typename).toBe("SignInExpiredError");
    expect(again.headers.get("set-cookie")).toBeNull();
    const madeUp = await gql(COMPLETE, { c: "x".repeat(43), code: "123456" });
    expect(madeUp.body.data?.completeSignIn.__typename).toBe("SignInExpiredError");
  });
});

describe("two-factor required for everyone", () => {
  it("is the administrators' to set, and only once their own account has it", async () => {
    const plain = await app.signedInAs("plain", { capabilities: ["VIEW_INVENTORY"] });
    const refused = await gql(SET_REQUIRED, { r: true }, plain);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const lazyAdmin = await app.signedInAs("lazy-admin", { isAdmin: true });
    const own = await gql(SET_REQUIRED, { r: true }, lazyAdmin);
    expect(own.body.data?.setTwoFactorRequired.__typename).toBe("ValidationError");
    expect((await gql("{ isTwoFactorRequired }", {}, admin)).body.data).toEqual({
      isTwoFactorRequired: false,
    });
  });

  it("limits a session without two-factor to enrolling until a code confirms it", async () => {
    await app.signedInAs("dave", { capabilities: ["VIEW_INVENTORY", "MANAGE_PROXMOX"] });
    expect((await gql(SET_REQUIRED, { r: true }, admin)).body.data?.setTwoFactorRequired).toEqual({
      __typename: "MutationSetTwoFactorRequiredSuccess",
      data: true,
    });
    try {
      const signedIn = await gql(SIGN_IN, { u: "dave", p: TEST_PASSWORD });
      expect(signedIn.body.data?.signIn.__typename).toBe("MutationSignInSuccess");
      const dave = cookieOf(signedIn.headers);
      if (!dave) throw new Error("no session");

      expect((await gql(VIEWER, {}, dave)).body.data?.viewer).toEqual({
        username: "dave",
        isAdmin: false,
        capabilities: [],
        mustEnrolTwoFactor: true,
        isTwoFactorEnabled: false,
      });
      // TRAP: docs/behaviour.md §12.35 — nothing but enrolment: not the inventory, not a token.
      for (const query of [
        "{ connections { id } }",
        "{ apiTokens { id } }",
        'mutation { createApiToken(name: "escape", capabilities: [VIEW_INVENTORY]) { __typename } }',
      ]) {
        const refused = await gql(query, {}, dave);
        expect(refused.body.errors?.[0]?.extensions?.code, query).toBe(
          "TWO_FACTOR_ENROLMENT_REQUIRED",
        );
      }
      expect(await app.services.prisma.apiToken.count()).toBe(0);

      const { secret } = await enrol(dave);
      const codes = await gql(CONFIRM, { code: codeAt(secret, Date.now()) }, dave);
      expect(codes.body.data?.confirmTwoFactor.data).toHaveLength(10);
      expect((await gql(VIEWER, {}, dave)).body.data?.viewer).toMatchObject({
        capabilities: ["VIEW_INVENTORY", "MANAGE_PROXMOX"],
        mustEnrolTwoFactor: false,
      });
      expect((await gql("{ connections { id } }", {}, dave)).body.errors).toBeUndefined();
    } finally {
      await gql(SET_REQUIRED, { r: false }, admin);
    }
  });

  it("does not touch a session while the setting is off", async () => {
    const erin = await app.signedInAs("erin", { capabilities: ["VIEW_INVENTORY"] });
    expect((await gql(VIEWER, {}, erin)).body.data?.viewer.mustEnrolTwoFactor).toBe(false);
    expect((await gql("{ connections { id } }", {}, erin)).body.errors).toBeUndefined();
  });
});

describe("an administrator's reset", () => {
  const RESET = `mutation($id: ID!) { resetTwoFactor(userId: $id) { username isTwoFactorEnabled } }`;
  const userId = async (username: string) => {
    const users = await gql("{ users { id username } }", {}, admin);
    return users.body.data?.users.find((u: { username: string }) => u.username === username)?.id;
  };

  it("needs MANAGE_USERS, clears the user's two-factor and is audited", async () => {
    await enrolledUser("frank");
    const id = await userId("frank");
    const outsider = await app.signedInAs("outsider", { capabilities: ["VIEW_INVENTORY"] });
    expect((await gql(RESET, { id }, outsider)).body.errors?.[0]?.extensions?.code).toBe(
      "FORBIDDEN",
    );
    const reset = await gql(RESET, { id }, admin);
    expect(reset.body.data?.resetTwoFactor).toEqual({
      username: "frank",
      isTwoFactorEnabled: false,
    });
    const signedIn = await gql(SIGN_IN, { u: "frank", p: TEST_PASSWORD });
    expect(signedIn.body.data?.signIn.__typename).toBe("MutationSignInSuccess");
    const entries = await app.services.prisma.auditLog.count({
      where: { action: "user.twoFactor.reset" },
    });
    expect(entries).toBe(1);
  });

  it("refuses an id that is not a user's", async () => {
    const connectionLike = Buffer.from("Connection:00000000-0000-4000-8000-000000000000").toString(
      "base64",
    );
    const res = await gql(RESET, { id: connectionLike }, admin);
    expect(res.body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});
