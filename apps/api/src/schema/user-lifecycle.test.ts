// The user lifecycle through the real server: changing your own password, an administrator's
// reset, capabilities, disabling, deleting, and your own sessions (docs/behaviour.md §7, §12).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandLineActor } from "../services/audit.ts";
import { deleteUser, disableUser } from "../services/users.ts";
import { startTestAppAsAdmin, TEST_PASSWORD, type TestApp } from "../testing/test-app.ts";

const NEW_PASSWORD = "a brand new long passphrase";

let app: TestApp;
let admin: string;
beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
});
afterAll(async () => app?.close());

type Errors = { message: string; extensions?: { code?: string } }[] | undefined;
const codeOf = (errors: Errors) => errors?.[0]?.extensions?.code;

/** The global id of a user, by name. */
async function userId(username: string): Promise<string> {
  const res = await app.graphql<{ users: { id: string; username: string }[] }>(
    "{ users { id username } }",
    {},
    { cookie: admin },
  );
  const user = res.body.data?.users.find((u) => u.username === username);
  if (!user) throw new Error(`no user ${username}: ${JSON.stringify(res.body)}`);
  return user.id;
}

/** A new session of an existing user (another browser), as a Cookie header; or the refusal. */
async function signIn(username: string, password = TEST_PASSWORD) {
  const res = await app.graphql<{ signIn: { __typename: string; mustChangePassword?: boolean } }>(
    `mutation($u: String!, $p: String!) { signIn(username: $u, password: $p) {
      __typename ... on MutationSignInSuccess { data { mustChangePassword } } } }`,
    { u: username, p: password },
    { "user-agent": "lifecycle-test/1.0" },
  );
  return {
    cookie: res.headers.get("set-cookie")?.split(";")[0],
    typename: res.body.data?.signIn.__typename,
    body: res.body,
  };
}

async function cookieOf(username: string, password = TEST_PASSWORD): Promise<string> {
  const { cookie, body } = await signIn(username, password);
  if (!cookie) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
  return cookie;
}

/** Whether a Cookie header still signs in, as `viewer` sees it. */
async function isSignedIn(cookie: string): Promise<boolean> {
  const res = await app.graphql<{ viewer: { username: string } | null }>(
    "{ viewer { username } }",
    {},
    { cookie },
  );
  return res.body.data?.viewer != null;
}

const RESULT = `__typename ... on Error { message } ... on ValidationError { field }`;

async function mutate(cookie: string, field: string, args: string, vars: Record<string, unknown>) {
  const res = await app.graphql<
    Record<string, { __typename: string; message?: string; field?: string }>
  >(`mutation(${args}) { r: ${field} { ${RESULT} } }`, vars, { cookie });
  return { result: res.body.data?.r, errors: res.body.errors as Errors };
}

const changeOwnPassword = (cookie: string, currentPassword: string, newPassword: string) =>
  mutate(
    cookie,
    "changeOwnPassword(currentPassword: $c, newPassword: $n)",
    "$c: String!, $n: String!",
    { c: currentPassword, n: newPassword },
  );

const resetPassword = (cookie: string, id: string, newPassword = NEW_PASSWORD) =>
  mutate(cookie, "resetUserPassword(userId: $id, newPassword: $n)", "$id: ID!, $n: String!", {
    id,
    n: newPassword,
  });

const updateCapabilities = (cookie: string, id: string, capabilities: string[], isAdmin = false) =>
  mutate(
    cookie,
    "updateUserCapabilities(userId: $id, capabilities: $caps, isAdmin: $admin)",
    "$id: ID!, $caps: [Capability!]!, $admin: Boolean!",
    { id, caps: capabilities, admin: isAdmin },
  );

const disable = (cookie: string, id: string) =>
  mutate(cookie, "disableUser(userId: $id)", "$id: ID!", { id });
const remove = (cookie: string, id: string) =>
  mutate(cookie, "deleteUser(userId: $id)", "$id: ID!", { id });

async function createToken(cookie: string) {
  const res = await app.graphql<{ createApiToken: { data: { token: string } } }>(
    `mutation { createApiToken(name: "t", capabilities: [VIEW_INVENTORY]) {
      ... on MutationCreateApiTokenSuccess { data { token } } } }`,
    {},
    { cookie },
  );
  const token = res.body.data?.createApiToken.data.token;
  if (!token) throw new Error(JSON.stringify(res.body));
  return token;
}

describe("changing your own password (docs/behaviour.md §12.7)", () => {
  it("refuses a wrong current password with a clear error, and counts it as a sign-in failure", async () => {
    const cookie = await app.signedInAs("guesser");
    const { result } = await changeOwnPassword(cookie, "not the password at all", NEW_PASSWORD);
    expect(result).toEqual({
      __typename: "ValidationError",
      message: "The current password is not correct.",
      field: "currentPassword",
    });
    const id = (
      await app.services.prisma.user.findUniqueOrThrow({ where: { username: "guesser" } })
    ).id;
    const counter = await app.services.prisma.loginThrottle.findUnique({
      where: { key: `user:id:${id}` },
    });
    expect(counter?.failures).toBe(1);
    // The password did not change.
    expect((await signIn("guesser")).typename).toBe("MutationSignInSuccess");
  });

  it("is refused once the sign-in limit holds the account back, even with the right password", async () => {
    const cookie = await app.signedInAs("hammer");
    for (let i = 0; i < 6; i++)
      await changeOwnPassword(cookie, `wrong guess number ${i}`, NEW_PASSWORD);
    const { result } = await changeOwnPassword(cookie, TEST_PASSWORD, NEW_PASSWORD);
    expect(result?.__typename).toBe("RateLimitedError");
  });

  it("ends your other sessions, keeps this one, and the new password is the one that signs in", async () => {
    const here = await app.signedInAs("mover");
    const elsewhere = await cookieOf("mover");
    const { result } = await changeOwnPassword(here, TEST_PASSWORD, NEW_PASSWORD);
    expect(result?.__typename).toBe("MutationChangeOwnPasswordSuccess");
    expect(await isSignedIn(here)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(false);
    expect((await signIn("mover")).typename).toBe("InvalidCredentialsError");
    expect((await signIn("mover", NEW_PASSWORD)).typename).toBe("MutationSignInSuccess");
  });

  it("checks the new password against the policy", async () => {
    const cookie = await app.signedInAs("shorty");
    const { result } = await changeOwnPassword(cookie, TEST_PASSWORD, "short");
    expect(result).toMatchObject({ __typename: "ValidationError", field: "newPassword" });
  });
});

describe("an administrator's password reset (docs/behaviour.md §12.8)", () => {
  it("ends the user's sessions and holds the next one to changing the password first", async () => {
    const before = await app.signedInAs("forgetful", { capabilities: ["VIEW_INVENTORY"] });
    const id = await userId("forgetful");
    const { result } = await resetPassword(admin, id);
    expect(result?.__typename).toBe("MutationResetUserPasswordSuccess");
    expect(await isSignedIn(before)).toBe(false);
    expect((await signIn("forgetful")).typename).toBe("InvalidCredentialsError");

    const after = await cookieOf("forgetful", NEW_PASSWORD);
    const viewer = await app.graphql<{ viewer: { mustChangePassword: boolean } }>(
      "{ viewer { username mustChangePassword } }",
      {},
      { cookie: after },
    );
    expect(viewer.body.data?.viewer).toEqual({ username: "forgetful", mustChangePassword: true });
    for (const query of [
      "{ connections { id } }",
      "{ mySessions { id } }",
      "{ viewer { username } ...F } fragment F on Query { apiTokens { id } }",
      'mutation { createApiToken(name: "x", capabilities: [VIEW_INVENTORY]) { __typename } }',
    ]) {
      const res = await app.graphql(query, {}, { cookie: after });
      expect(codeOf(res.body.errors), query).toBe("PASSWORD_CHANGE_REQUIRED");
      expect(res.body.data ?? null, query).toBeNull();
    }

    // Subscriptions are held back too (the gate runs at subscribe, over SSE here).
    const stream = await fetch(`${app.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", cookie: after },
      body: JSON.stringify({ query: "subscription { syncProgress { type } }" }),
    });
    expect(await stream.text()).toContain("PASSWORD_CHANGE_REQUIRED");

    const changed = await changeOwnPassword(after, NEW_PASSWORD, "the password only I know now");
    expect(changed.result?.__typename).toBe("MutationChangeOwnPasswordSuccess");
    const res = await app.graphql("{ mySessions { id } }", {}, { cookie: after });
    expect(res.body.errors).toBeUndefined();
  });

  it("needs MANAGE_USERS, and is not how you change your own", async () => {
    const plain = await app.signedInAs("plain");
    const { errors } = await resetPassword(plain, await userId("admin"));
    expect(codeOf(errors)).toBe("FORBIDDEN");
    const own = await resetPassword(admin, await userId("admin"));
    expect(own.result).toMatchObject({ __typename: "ValidationError", field: "userId" });
  });
});

describe("capabilities (docs/behaviour.md §7.8)", () => {
  it("take effect at the next request of a session already open", async () => {
    const cookie = await app.signedInAs("promoted", { capabilities: ["VIEW_INVENTORY"] });
    const users = () => app.graphql("{ users { id } }", {}, { cookie });
    const connections = () => app.graphql("{ connections { id } }", {}, { cookie });
    expect(codeOf((await users()).body.errors)).toBe("FORBIDDEN");
    const id = await userId("promoted");
    await updateCapabilities(admin, id, ["MANAGE_USERS"]);
    expect((await users()).body.errors).toBeUndefined();
    expect(codeOf((await connections()).body.errors)).toBe("FORBIDDEN");
  });

  it("never leave Hyperlens without an enabled administrator: not by edit, disable or delete", async () => {
    const adminId = await userId("admin");
    // "admin" is the only administrator: it may not demote itself, and the command line (which
    // may act on administrators) may not disable or delete it.
    const alone = await updateCapabilities(admin, adminId, ["VIEW_INVENTORY"]);
    expect(alone.result?.__typename).toBe("ValidationError");
    expect(alone.result?.message).toContain("last enabled administrator");
    const life = { prisma: app.services.prisma, announce: () => undefined };
    const adminUuid = Buffer.from(adminId, "base64")
      .toString()
      .replace(/^User:/, "");
    // One at a time: a second attempt started beside the first could reject before its
    // expectation is attached, an unhandled rejection.
    for (const attempt of [
      () => disableUser(life, commandLineActor(), adminUuid),
      () => deleteUser(life, commandLineActor(), adminUuid),
    ]) {
      await expect(attempt()).rejects.toThrow("last enabled administrator");
    }
    expect(await isSignedIn(admin)).toBe(true);

    // With a second administrator, the first may be demoted (and then made one again).
    const second = await app.signedInAs("second-admin", { isAdmin: true });
    const secondId = await userId("second-admin");
    expect((await updateCapabilities(second, adminId, ["VIEW_INVENTORY"])).result?.__typename).toBe(
      "MutationUpdateUserCapabilitiesSuccess",
    );
    expect(
      (await updateCapabilities(second, secondId, ["VIEW_INVENTORY"])).result?.message,
    ).toContain("last enabled administrator");
    expect((await updateCapabilities(second, adminId, [], true)).result?.__typename).toBe(
      "MutationUpdateUserCapabilitiesSuccess",
    );
    expect(await isSignedIn(admin)).toBe(true);
  });
});

describe("a user manager who is not an administrator (docs/behaviour.md §7.16)", () => {
  it("may not act on an administrator, make one, or grant a capability they lack", async () => {
    const manager = await app.signedInAs("limited-manager", {
      capabilities: ["VIEW_INVENTORY", "MANAGE_USERS"],
    });
    await app.signedInAs("plain-user", { capabilities: ["VIEW_INVENTORY"] });
    const adminId = await userId("admin");
    const plainId = await userId("plain-user");
    for (const attempt of [
      updateCapabilities(manager, adminId, ["VIEW_INVENTORY"]),
      resetPassword(manager, adminId),
      disable(manager, adminId),
      remove(manager, adminId),
      updateCapabilities(manager, plainId, [], true),
      app
        .graphql(
          "mutation($id: ID!) { resetTwoFactor(userId: $id) { id } }",
          { id: adminId },
          {
            cookie: manager,
          },
        )
        .then((res) => ({ errors: res.body.errors as Errors })),
      mutate(
        manager,
        'createUser(username: "sneaky", password: $p, capabilities: [], isAdmin: true)',
        "$p: String!",
        { p: NEW_PASSWORD },
      ),
    ]) {
      expect(codeOf((await attempt).errors)).toBe("FORBIDDEN");
    }
    const beyond = await updateCapabilities(manager, plainId, ["MANAGE_PROXMOX"]);
    expect(beyond.result?.__typename).toBe("ValidationError");
    expect(beyond.result?.message).toContain("MANAGE_PROXMOX");
    expect(await isSignedIn(admin)).toBe(true);

    // Below them, they manage as before.
    expect(
      (await updateCapabilities(manager, plainId, ["VIEW_INVENTORY", "MANAGE_USERS"])).result
        ?.__typename,
    ).toBe("MutationUpdateUserCapabilitiesSuccess");
    expect((await resetPassword(manager, plainId)).result?.__typename).toBe(
      "MutationResetUserPasswordSuccess",
    );
  });
});

describe("disabling a user (docs/behaviour.md §7.13)", () => {
  it("ends every session and API token of theirs at once, and enabling does not bring tokens back", async () => {
    const cookie = await app.signedInAs("leaver");
    const token = await createToken(cookie);
    const viaToken = () =>
      app.graphql("{ viewer { username } }", {}, { authorization: `Bearer ${token}` });
    expect((await viaToken()).body.data).toEqual({ viewer: { username: "leaver" } });
    const id = await userId("leaver");
    expect((await disable(admin, id)).result?.__typename).toBe("MutationDisableUserSuccess");
    expect(await isSignedIn(cookie)).toBe(false);
    expect((await viaToken()).body.data).toEqual({ viewer: null });
    expect((await signIn("leaver")).typename).toBe("InvalidCredentialsError");

    await app.graphql(
      "mutation($id: ID!) { enableUser(userId: $id) { id } }",
      { id },
      { cookie: admin },
    );
    expect((await signIn("leaver")).typename).toBe("MutationSignInSuccess");
    expect((await viaToken()).body.data).toEqual({ viewer: null });
  });

  it("is not for yourself", async () => {
    const { result } = await disable(admin, await userId("admin"));
    expect(result).toMatchObject({ __typename: "ValidationError", field: "userId" });
  });
});

describe("deleting a user (docs/behaviour.md §7.14)", () => {
  it("takes their sessions and tokens; their audit entries stay with their name", async () => {
    const cookie = await app.signedInAs("departed");
    await createToken(cookie);
    const id = await userId("departed");
    expect((await remove(admin, id)).result?.__typename).toBe("MutationDeleteUserSuccess");
    expect(await isSignedIn(cookie)).toBe(false);
    expect(
      await app.services.prisma.apiToken.count({
        where: { name: "t", createdBy: { username: "departed" } },
      }),
    ).toBe(0);
    const log = await app.graphql<{
      auditLog: { edges: { node: { action: string; actorName: string | null } }[] };
    }>("{ auditLog(first: 50) { edges { node { action actorName } } } }", {}, { cookie: admin });
    const entries = log.body.data?.auditLog.edges.map((e) => e.node) ?? [];
    const created = entries.find((e) => e.action === "token.create" && e.actorName === "departed");
    expect(created, JSON.stringify(log.body).slice(0, 1500)).toBeDefined();
    const deleted = entries.find((e) => e.action === "user.delete");
    expect(deleted?.actorName).toBe("admin");
  });

  it("is not for yourself", async () => {
    const { result } = await remove(admin, await userId("admin"));
    expect(result).toMatchObject({ __typename: "ValidationError", field: "userId" });
  });
});

describe("your sessions (docs/behaviour.md §12.9)", () => {
  type Session = { id: string; isCurrent: boolean; userAgent: string | null; method: string };
  const mySessions = async (cookie: string) => {
    const res = await app.graphql<{ mySessions: Session[] }>(
      "{ mySessions { id isCurrent userAgent method address createdAt lastSeenAt } }",
      {},
      { cookie },
    );
    if (!res.body.data) throw new Error(JSON.stringify(res.body));
    return res.body.data.mySessions;
  };

  it("lists yours with where they came from; sign out everywhere else keeps this one", async () => {
    const here = await app.signedInAs("traveller");
    const laptop = await cookieOf("traveller");
    const sessions = await mySessions(here);
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.isCurrent)).toHaveLength(1);
    expect(sessions.find((s) => !s.isCurrent)).toMatchObject({
      userAgent: "lifecycle-test/1.0",
      method: "password",
    });
    const res = await app.graphql("mutation { signOutEverywhereElse }", {}, { cookie: here });
    expect(res.body.data).toEqual({ signOutEverywhereElse: 1 });
    expect(await isSignedIn(laptop)).toBe(false);
    expect(await isSignedIn(here)).toBe(true);
  });

  it("ends one of yours by id, but never another user's (NOT_FOUND, and it stays signed in)", async () => {
    const victim = await app.signedInAs("victim");
    const victimOther = await cookieOf("victim");
    const attacker = await app.signedInAs("attacker", { capabilities: ["MANAGE_USERS"] });
    const target = (await mySessions(victim)).find((s) => !s.isCurrent);
    if (!target) throw new Error("no second session");
    const revoke = (cookie: string) =>
      app.graphql("mutation($id: ID!) { revokeSession(id: $id) }", { id: target.id }, { cookie });
    expect(codeOf((await revoke(attacker)).body.errors)).toBe("NOT_FOUND");
    expect(await isSignedIn(victimOther)).toBe(true);
    const peek = await app.graphql<{ node: unknown }>(
      "query($id: ID!) { node(id: $id) { id ... on Session { userAgent } } }",
      { id: target.id },
      { cookie: attacker },
    );
    expect(peek.body.data).toEqual({ node: null });
    expect((await mySessions(attacker)).map((s) => s.id)).not.toContain(target.id);

    expect((await revoke(victim)).body.data).toEqual({ revokeSession: true });
    expect(await isSignedIn(victimOther)).toBe(false);
    expect(await isSignedIn(victim)).toBe(true);
  });

  it("are a person's: an API token has none to list, and no password to change", async () => {
    const cookie = await app.signedInAs("integrator");
    const token = await createToken(cookie);
    const res = await app.graphql(
      "{ mySessions { id } }",
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(codeOf(res.body.errors)).toBe("FORBIDDEN");
  });
});
