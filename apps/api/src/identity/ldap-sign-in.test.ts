// Directory sign-in through the real GraphQL server against Debian's real OpenLDAP server
// (docs/behaviour.md §12): the directory decides who signs in, its groups decide what they may do
// and see (re-read at every sign-in), and every failure answers as the rules say.
import type { Capability } from "@hyperlens/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestDirectory, type TestDirectory } from "../testing/slapd.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import {
  createIdentityProvider,
  type ProviderSources,
  updateIdentityProvider,
} from "./providers.ts";

const SIGN_IN_WITH_DIRECTORY = `mutation($provider: String!, $u: String!, $p: String!) {
  signInWithDirectory(provider: $provider, username: $u, password: $p) {
    __typename
    ... on Error { message }
    ... on ValidationError { field }
    ... on MutationSignInWithDirectorySuccess { data { username } }
  }
}`;
const SIGN_IN = `mutation($u: String!, $p: String!) {
  signIn(username: $u, password: $p) { __typename ... on Error { message } }
}`;

interface Answer {
  signInWithDirectory?: {
    __typename: string;
    message?: string;
    field?: string;
    data?: { username: string };
  };
}

let directory: TestDirectory;
let app: TestApp;
let sources: ProviderSources;

const TENANT = "Tenant A";

function settings(more: Record<string, unknown> = {}) {
  return {
    url: directory.ldapsUrl,
    caPem: directory.caPem,
    bindDn: directory.serviceDn,
    userBaseDn: directory.peopleDn,
    userFilter: "(&(objectClass=inetOrgPerson)(uid={username}))",
    ...more,
  };
}

function providerInput(slug: string, more: Record<string, unknown> = {}, secret?: string) {
  return {
    slug,
    kind: "LDAP" as const,
    displayName: `Directory ${slug}`,
    isEnabled: true,
    createJustInTime: true,
    groupMappings: [
      {
        group: directory.groupDn("hyperlens-admins"),
        capabilities: [],
        isAdmin: true,
        allConnections: true,
        connectionGroups: [],
      },
      {
        group: directory.groupDn("tenant-a"),
        capabilities: ["VIEW_INVENTORY"] as Capability[],
        isAdmin: false,
        allConnections: false,
        connectionGroups: [TENANT],
      },
    ],
    settings: settings(more),
    secret: secret ?? directory.servicePassword,
  };
}

const signInWith = async (provider: string, username: string, password: string) => {
  const res = await app.graphql<Answer>(SIGN_IN_WITH_DIRECTORY, {
    provider,
    u: username,
    p: password,
  });
  return { res, answer: res.body.data?.signInWithDirectory, cookie: res.headers.get("set-cookie") };
};

/** The warning logged for a provider's failed sign-in (the administrator's reason). */
const failureLogged = (slug: string) =>
  app.logLines.find(
    (line) => line.includes("directory sign-in failed") && line.includes(`${slug}:`),
  ) ?? "";

const userNamed = (username: string) =>
  app.services.prisma.user.findFirstOrThrow({
    where: { username },
    include: { groupGrants: { include: { group: true } }, identities: true },
  });

beforeAll(async () => {
  directory = await startTestDirectory({
    people: [
      { uid: "alice", password: "alice-password", mail: "alice@example.org" },
      { uid: "bob", password: "bob-password" },
      { uid: "carol", password: "carol-password" },
      { uid: "erin", password: "erin-password" },
    ],
    groups: [
      { cn: "hyperlens-admins", members: ["alice"] },
      { cn: "tenant-a", members: ["bob", "erin"] },
    ],
  });
  app = await startTestApp();
  sources = {
    prisma: app.services.prisma,
    secrets: app.services.secrets,
    environmentProviders: [],
  };
  await app.services.prisma.connectionGroup.create({ data: { name: TENANT } });
  await createIdentityProvider(sources, providerInput("corp"), null);
  await createIdentityProvider(
    sources,
    providerInput("corp-starttls", { url: directory.ldapUrl }),
    null,
  );
  await createIdentityProvider(
    sources,
    providerInput("corp-wrong-ca", { url: directory.ldapUrl, caPem: directory.foreignCaPem }),
    null,
  );
  await createIdentityProvider(
    sources,
    providerInput("corp-bad-service", {}, "not-the-password"),
    null,
  );
  // Turned off, and pointing where nothing answers: asking it would fail differently.
  await createIdentityProvider(
    sources,
    { ...providerInput("corp-off", { url: "ldaps://127.0.0.1:1" }), isEnabled: false },
    null,
  );
});

afterAll(async () => {
  await app?.close();
  await directory?.close();
});

// Each test starts with no failures counted (the test server is always 127.0.0.1).
beforeEach(async () => {
  await app.services.prisma.loginThrottle.deleteMany();
});

describe("a directory account", () => {
  it("signs in over LDAPS: a session, an account keyed by entryUUID, named as the directory names it", async () => {
    const { answer, cookie, res } = await signInWith("corp", "alice", "alice-password");
    expect(answer?.__typename, JSON.stringify(res.body)).toBe("MutationSignInWithDirectorySuccess");
    expect(answer?.data?.username).toBe("alice");
    expect(cookie).toMatch(/^__Host-/);
    const alice = await userNamed("alice");
    expect(alice.passwordHash).toBeNull();
    expect(alice.identities).toEqual([
      expect.objectContaining({
        provider: "corp",
        subject: expect.stringMatching(/^[0-9a-f-]{36}$/),
      }),
    ]);
    const session = await app.services.prisma.session.findFirstOrThrow({
      where: { userId: alice.id },
    });
    expect(session.method).toBe("corp");
  });

  it("gets what its groups map to: administrator; capabilities and connection groups", async () => {
    expect((await signInWith("corp", "alice", "alice-password")).answer?.__typename).toMatch(
      /Success$/,
    );
    expect((await signInWith("corp", "bob", "bob-password")).answer?.__typename).toMatch(
      /Success$/,
    );
    const alice = await userNamed("alice");
    expect(alice).toMatchObject({ isAdmin: true, allConnections: true });
    const bob = await userNamed("bob");
    expect(bob).toMatchObject({
      isAdmin: false,
      allConnections: false,
      capabilities: ["VIEW_INVENTORY"],
    });
    expect(bob.groupGrants.map((g) => [g.group.name, g.source])).toEqual([[TENANT, "corp"]]);
  });

  it("loses and regains access at the next sign-in when the directory changes its groups", async () => {
    await signInWith("corp", "erin", "erin-password");
    expect((await userNamed("erin")).groupGrants).toHaveLength(1);
    await directory.removeMember("tenant-a", "erin");
    await directory.addMember("hyperlens-admins", "erin");
    await signInWith("corp", "erin", "erin-password");
    const promoted = await userNamed("erin");
    expect(promoted).toMatchObject({ isAdmin: true, capabilities: [] });
    expect(promoted.groupGrants).toEqual([]);
    await directory.removeMember("hyperlens-admins", "erin");
    await directory.addMember("tenant-a", "erin");
    await signInWith("corp", "erin", "erin-password");
    const back = await userNamed("erin");
    expect(back).toMatchObject({ isAdmin: false, capabilities: ["VIEW_INVENTORY"] });
    expect(back.groupGrants.map((g) => g.group.name)).toEqual([TENANT]);
  });

  it("keeps its account when renamed in the directory (the subject, not the DN, is the key)", async () => {
    await signInWith("corp", "carol", "carol-password");
    const before = await userNamed("carol");
    await directory.renamePerson("carol", "caroline");
    const { answer } = await signInWith("corp", "caroline", "carol-password");
    expect(answer?.data?.username).toBe("carol");
    expect((await userNamed("carol")).id).toBe(before.id);
    await directory.renamePerson("caroline", "carol");
  });
});

describe("a refused directory sign-in", () => {
  it("answers a wrong password, an unknown user and an empty password as a wrong local password", async () => {
    const local = await app.graphql<{ signIn: unknown }>(SIGN_IN, { u: "nobody", p: "whatever" });
    for (const [username, password] of [
      ["alice", "bob-password"],
      ["mallory", "alice-password"],
      ["alice", ""],
    ] as const) {
      const { answer, cookie } = await signInWith("corp", username, password);
      expect(answer, `${username}/${password}`).toEqual(local.body.data?.signIn);
      expect(cookie).toBeNull();
    }
  });

  it.each(["*)(uid=*", "admin)(|(uid=*", "al*", "alice)(|(objectClass=*"])(
    "treats the name %s as a name, not filter syntax",
    async (username) => {
      const { answer } = await signInWith("corp", username, "alice-password");
      expect(answer?.__typename).toBe("InvalidCredentialsError");
    },
  );

  it("counts against the same limits as the local form, before the directory is asked", async () => {
    for (let i = 0; i < 6; i++) await signInWith("corp", "bob", `wrong ${i}`);
    const { answer } = await signInWith("corp", "bob", "bob-password");
    expect(answer?.__typename).toBe("RateLimitedError");
    const local = await app.graphql<{ signIn: { __typename: string } }>(SIGN_IN, {
      u: "bob",
      p: "x",
    });
    expect(local.body.data?.signIn.__typename).toBe("RateLimitedError");
  });

  it("refuses a turned-off provider without asking the directory", async () => {
    const { res } = await signInWith("corp-off", "alice", "alice-password");
    expect(res.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(res.body.errors?.[0]?.message).toMatch(/turned off/);
  });

  it("refuses a provider turned off after it was used", async () => {
    await createIdentityProvider(sources, providerInput("corp-later"), null);
    expect((await signInWith("corp-later", "alice", "alice-password")).answer?.__typename).toMatch(
      /Success$/,
    );
    await updateIdentityProvider(
      sources,
      { ...providerInput("corp-later"), secret: undefined, isEnabled: false },
      null,
    );
    const { res } = await signInWith("corp-later", "alice", "alice-password");
    expect(res.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("answers a disabled account's right password as a wrong one", async () => {
    await signInWith("corp", "erin", "erin-password");
    await app.services.prisma.user.update({
      where: { username: "erin" },
      data: { disabledAt: new Date() },
    });
    const { answer, cookie } = await signInWith("corp", "erin", "erin-password");
    expect(answer?.__typename).toBe("InvalidCredentialsError");
    expect(cookie).toBeNull();
    await app.services.prisma.user.update({
      where: { username: "erin" },
      data: { disabledAt: null },
    });
  });

  it("names an unknown provider, and one that is not a directory", async () => {
    await createIdentityProvider(
      sources,
      {
        ...providerInput("sso"),
        kind: "OIDC",
        settings: { issuer: "https://sso.example.com", clientId: "hyperlens" },
        secret: "oidc-client-secret",
      },
      null,
    );
    for (const slug of ["nowhere", "sso"]) {
      const { answer } = await signInWith(slug, "alice", "alice-password");
      expect(answer, slug).toMatchObject({ __typename: "ValidationError", field: "provider" });
    }
  });
});

describe("the connection to the directory", () => {
  it("signs in over ldap:// upgraded with StartTLS, verified against the CA", async () => {
    const { answer } = await signInWith("corp-starttls", "bob", "bob-password");
    expect(answer?.__typename).toMatch(/Success$/);
  });

  it("refuses a directory whose certificate another CA signed, and tells the administrator why", async () => {
    const { res } = await signInWith("corp-wrong-ca", "bob", "bob-password");
    expect(res.body.errors?.[0]?.extensions?.code).toBe("PROVIDER_UNAVAILABLE");
    expect(res.body.errors?.[0]?.message).toMatch(/not possible right now/);
    expect(failureLogged("corp-wrong-ca")).toMatch(
      /corp-wrong-ca: TLS: .*not signed by the configured CA/,
    );
  });

  it("names a service account the directory refuses, in the log, never its password", async () => {
    const { res } = await signInWith("corp-bad-service", "bob", "bob-password");
    expect(res.body.errors?.[0]?.extensions?.code).toBe("PROVIDER_UNAVAILABLE");
    expect(failureLogged("corp-bad-service")).toMatch(
      /corp-bad-service: SERVICE_BIND: .*cn=hyperlens,ou=services/,
    );
    const log = app.logLines.join("\n");
    expect(log).not.toContain("not-the-password");
    expect(log).not.toContain("bob-password");
  });
});

describe("the administrator's test of a directory provider", () => {
  const TEST = `mutation($slug: String!) {
    testDirectoryProvider(slug: $slug) {
      __typename
      ... on MutationTestDirectoryProviderSuccess { data { isOk message } }
    }
  }`;
  type Check = { testDirectoryProvider?: { data?: { isOk: boolean; message: string | null } } };

  it("says the service account was refused, and that a good provider works", async () => {
    const admin = await app.signedInAs("directory-admin", { isAdmin: true });
    const bad = await app.graphql<Check>(TEST, { slug: "corp-bad-service" }, { cookie: admin });
    expect(bad.body.data?.testDirectoryProvider?.data?.isOk).toBe(false);
    expect(bad.body.data?.testDirectoryProvider?.data?.message).toMatch(
      /refused the service account cn=hyperlens,ou=services,dc=example,dc=org: check its bind DN and password/,
    );
    const good = await app.graphql<Check>(TEST, { slug: "corp-starttls" }, { cookie: admin });
    expect(good.body.data?.testDirectoryProvider?.data).toEqual({ isOk: true, message: null });
  });

  it("is for user managers only", async () => {
    const viewer = await app.signedInAs("directory-viewer");
    const res = await app.graphql<Check>(TEST, { slug: "corp" }, { cookie: viewer });
    expect(res.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});

describe("a directory provider saved through the API", () => {
  const CREATE = `mutation($input: IdentityProviderInput!) {
    createIdentityProvider(input: $input) {
      __typename
      ... on MutationCreateIdentityProviderSuccess { data { slug hasSecret ldap { url startTls userFilter subjectAttribute } } }
      ... on ValidationError { problems { field message } }
    }
  }`;
  type Created = {
    createIdentityProvider?: {
      __typename: string;
      data?: { slug: string; hasSecret: boolean; ldap: Record<string, unknown> };
      problems?: { field: string; message: string }[];
    };
  };
  const input = (slug: string, ldap: Record<string, unknown>) => ({
    slug,
    kind: "LDAP",
    displayName: "Directory",
    isEnabled: true,
    createJustInTime: true,
    groupMappings: [],
    ldap,
    secret: directory.servicePassword,
  });

  it("keeps its settings with their defaults, and its password write-only; signs people in at once", async () => {
    const admin = await app.signedInAs("provider-admin", { isAdmin: true });
    const ldap = {
      url: directory.ldapsUrl,
      caPem: directory.caPem,
      bindDn: directory.serviceDn,
      userBaseDn: directory.peopleDn,
    };
    const res = await app.graphql<Created>(
      CREATE,
      { input: input("corp-api", ldap) },
      { cookie: admin },
    );
    expect(res.body.data?.createIdentityProvider?.data).toEqual({
      slug: "corp-api",
      hasSecret: true,
      ldap: {
        url: directory.ldapsUrl,
        startTls: true,
        userFilter: "(&(objectClass=person)(uid={username}))",
        subjectAttribute: "entryUUID",
      },
    });
    expect(JSON.stringify(res.body)).not.toContain(directory.servicePassword);
    expect((await signInWith("corp-api", "bob", "bob-password")).answer?.__typename).toMatch(
      /Success$/,
    );
  });

  it("names each wrong setting: clear text not accepted, a filter without {username}", async () => {
    const admin = await app.signedInAs("provider-admin-2", { isAdmin: true });
    const ldap = {
      url: directory.ldapUrl,
      startTls: false,
      bindDn: directory.serviceDn,
      userBaseDn: directory.peopleDn,
      userFilter: "(uid=alice)",
    };
    const res = await app.graphql<Created>(
      CREATE,
      { input: input("corp-bad", ldap) },
      { cookie: admin },
    );
    const problems = res.body.data?.createIdentityProvider?.problems ?? [];
    expect(problems.map((p) => p.field).sort()).toEqual([
      "settings.allowUnencrypted",
      "settings.userFilter",
    ]);
    expect(await app.services.prisma.identityProvider.count({ where: { slug: "corp-bad" } })).toBe(
      0,
    );
  });
});
