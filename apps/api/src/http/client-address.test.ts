// Which address the sign-in limits charge: X-Forwarded-For is believed only from a configured
// trusted proxy. Real servers, real sign-ins; the test server's peer is always 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { startTestApp, TEST_PASSWORD, type TestApp } from "../testing/test-app.ts";

const SIGN_IN = `mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) { __typename } }`;
type SignIn = { signIn: { __typename: string } };

/** The documented failures one address may make in 15 minutes. */
const ADDRESS_LIMIT = 20;

const signInFrom = (
  app: TestApp,
  forwardedFor: string | null,
  username: string,
  password: string,
) =>
  app
    .graphql<SignIn>(
      SIGN_IN,
      { u: username, p: password },
      forwardedFor === null ? {} : { "x-forwarded-for": forwardedFor },
    )
    .then((res) => res.body.data?.signIn.__typename);

/** The addresses the sign-in limit has counted, with their counts. */
async function chargedAddresses(app: TestApp) {
  const rows = await app.services.prisma.loginThrottle.findMany({
    where: { key: { startsWith: "addr:" } },
  });
  return Object.fromEntries(rows.map((row) => [row.key.slice("addr:".length), row.failures]));
}

describe("the client address without a trusted proxy", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    await app.signedInAs("alice");
  });
  afterAll(async () => app?.close());

  it("ignores a spoofed X-Forwarded-For: every guess is charged to the peer", async () => {
    for (let i = 0; i < ADDRESS_LIMIT; i++)
      await signInFrom(app, `203.0.113.${i}`, `nobody${i}`, "wrong password!!");
    expect(await chargedAddresses(app)).toEqual({ "127.0.0.1": ADDRESS_LIMIT });
    expect(await signInFrom(app, "198.51.100.99", "alice", TEST_PASSWORD)).toBe("RateLimitedError");
  });
});

describe("the client address behind a trusted proxy", () => {
  let app: TestApp;
  beforeAll(async () => {
    const { trustedProxies } = loadConfig({
      HYPERLENS_TRUSTED_PROXIES: "127.0.0.1/32, 10.0.0.0/8, fd00::/8",
    });
    app = await startTestApp({ trustedProxies });
    await app.signedInAs("alice");
  });
  afterAll(async () => app?.close());

  it("limits each forwarded client on its own: one client's failures do not lock out another", async () => {
    for (let i = 0; i < ADDRESS_LIMIT; i++)
      await signInFrom(app, "203.0.113.1", `nobody${i}`, "wrong password!!");
    expect(await signInFrom(app, "203.0.113.1", "alice", TEST_PASSWORD)).toBe("RateLimitedError");
    expect(await signInFrom(app, "203.0.113.2", "alice", TEST_PASSWORD)).toBe(
      "MutationSignInSuccess",
    );
  });

  it("takes the right-most address that is not a trusted proxy", async () => {
    await app.services.prisma.loginThrottle.deleteMany();
    // What the client wrote itself (left) is not believed past the first untrusted hop.
    await signInFrom(app, "6.6.6.6, 198.51.100.7, 10.1.2.3", "nobody", "wrong password!!");
    await signInFrom(app, "2001:db8::7, fd00::1", "nobody", "wrong password!!");
    // Garbage where an address should be: the last hop a trusted proxy vouched for.
    await signInFrom(app, "not-an-address, 10.0.0.9", "nobody", "wrong password!!");
    // No header at all: the proxy itself.
    await signInFrom(app, null, "nobody", "wrong password!!");
    expect(await chargedAddresses(app)).toEqual({
      "198.51.100.7": 1,
      "2001:db8::7": 1,
      "10.0.0.9": 1,
      "127.0.0.1": 1,
    });
  });
});
