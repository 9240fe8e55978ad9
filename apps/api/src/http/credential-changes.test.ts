// Open subscriptions end at once when their user's credentials change, over WebSocket and SSE
// alike: the periodic re-check is set far beyond the test, so only the credentials-changed
// signal (auth/credential-changes.ts) can end them (docs/behaviour.md §7.15).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ClientCredentials,
  type OpenSubscription,
  openSse,
  openWebSocket,
} from "../testing/open-subscriptions.ts";
import { startTestAppAsAdmin, TEST_PASSWORD, type TestApp } from "../testing/test-app.ts";

/** No periodic re-check happens during the test. */
const RECHECK_MS = 10 * 60_000;
/** Far shorter than RECHECK_MS, and long for a signal on a loaded machine. */
const WAIT_FOR_END_MS = 5_000;

let app: TestApp;
let admin: string;
beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin({ subscriptionRecheckMs: RECHECK_MS }));
});
afterAll(async () => app?.close());

async function userIdOf(username: string) {
  const user = await app.services.prisma.user.findUniqueOrThrow({ where: { username } });
  const res = await app.graphql<{ users: { id: string; username: string }[] }>(
    "{ users { id username } }",
    {},
    { cookie: admin },
  );
  const id = res.body.data?.users.find((u) => u.username === user.username)?.id;
  if (!id) throw new Error(JSON.stringify(res.body));
  return id;
}

async function tokenOf(cookie: string) {
  const res = await app.graphql<{
    createApiToken: { data: { token: string; apiToken: { id: string } } };
  }>(
    `mutation { createApiToken(name: "live", capabilities: [VIEW_INVENTORY]) {
      ... on MutationCreateApiTokenSuccess { data { token apiToken { id } } } } }`,
    {},
    { cookie },
  );
  const data = res.body.data?.createApiToken.data;
  if (!data) throw new Error(JSON.stringify(res.body));
  return data;
}

/** One subscription per transport with `credentials`, checked to be open. */
async function openBoth(credentials: ClientCredentials) {
  const both = [await openSse(app.url, credentials), await openWebSocket(app.url, credentials)];
  return both;
}

/** Each subscription ended within the window, with UNAUTHENTICATED (SSE) or 4401 (WebSocket). */
async function expectEndedUnauthenticated(subscriptions: OpenSubscription[]) {
  const [sse, ws] = subscriptions;
  expect(await sse?.endsWithin(WAIT_FOR_END_MS)).toBe(true);
  expect(sse?.text()).toContain("UNAUTHENTICATED");
  expect(await ws?.endsWithin(WAIT_FOR_END_MS)).toBe(true);
  expect(ws?.text()).toContain("close 4401");
}

const closeAll = (subscriptions: OpenSubscription[]) => {
  for (const s of subscriptions) s.close();
};

describe("open subscriptions end at once, not at the next periodic re-check", () => {
  it("when their user is disabled: the sessions' and the tokens', over both transports", async () => {
    const cookie = await app.signedInAs("disabled-live");
    const { token } = await tokenOf(cookie);
    const bystander = await app.signedInAs("bystander-live");
    const bySession = await openBoth({ cookie });
    const byToken = await openBoth({ token });
    const unrelated = await openBoth({ cookie: bystander });
    try {
      const res = await app.graphql(
        "mutation($id: ID!) { disableUser(userId: $id) { __typename } }",
        { id: await userIdOf("disabled-live") },
        { cookie: admin },
      );
      expect(res.body.errors).toBeUndefined();
      await expectEndedUnauthenticated(bySession);
      await expectEndedUnauthenticated(byToken);
      // Another user's subscriptions are untouched.
      expect(await unrelated[0]?.endsWithin(500)).toBe(false);
      expect(await unrelated[1]?.endsWithin(10)).toBe(false);
    } finally {
      closeAll([...bySession, ...byToken, ...unrelated]);
    }
  });

  it("when their session is signed out everywhere else", async () => {
    const here = await app.signedInAs("everywhere-live");
    const elsewhere = await app.signedInAs("everywhere-live-2");
    void elsewhere;
    // A second session of the same user: sign in again.
    const res = await app.graphql(
      "mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { __typename } }",
      { u: "everywhere-live", p: TEST_PASSWORD },
    );
    const other = res.headers.get("set-cookie")?.split(";")[0] ?? "";
    const subscriptions = await openBoth({ cookie: other });
    try {
      const out = await app.graphql("mutation { signOutEverywhereElse }", {}, { cookie: here });
      expect(out.body.data).toEqual({ signOutEverywhereElse: 1 });
      await expectEndedUnauthenticated(subscriptions);
    } finally {
      closeAll(subscriptions);
    }
  });

  it("when their password is reset by an administrator", async () => {
    const cookie = await app.signedInAs("reset-live");
    const subscriptions = await openBoth({ cookie });
    try {
      const res = await app.graphql(
        `mutation($id: ID!) { resetUserPassword(userId: $id, newPassword: "another long passphrase") { __typename } }`,
        { id: await userIdOf("reset-live") },
        { cookie: admin },
      );
      expect(res.body.errors).toBeUndefined();
      await expectEndedUnauthenticated(subscriptions);
    } finally {
      closeAll(subscriptions);
    }
  });

  it("when their token is revoked", async () => {
    const cookie = await app.signedInAs("token-live");
    const { token, apiToken } = await tokenOf(cookie);
    const subscriptions = await openBoth({ token });
    try {
      const res = await app.graphql(
        "mutation($id: ID!) { revokeApiToken(id: $id) }",
        { id: apiToken.id },
        { cookie },
      );
      expect(res.body.data).toEqual({ revokeApiToken: true });
      await expectEndedUnauthenticated(subscriptions);
    } finally {
      closeAll(subscriptions);
    }
  });
});
