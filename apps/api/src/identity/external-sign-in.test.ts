// docs/behaviour.md §12: an identity a provider vouched for signs in by its subject only, is created
// just in time only when the provider allows it, and gets its access from the groups every time.
import type { PrismaClient } from "@hyperlens/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "../context.ts";
import { createUser } from "../services/users.ts";
import { createTestServices, TEST_PASSWORD } from "../testing/test-app.ts";
import { signInExternalIdentity, usernameBase } from "./external-sign-in.ts";
import type { IdentityProviderConfig } from "./provider-config.ts";

let services: AppServices;
let prisma: PrismaClient;
let close: () => Promise<void>;

beforeAll(async () => {
  const test = await createTestServices();
  services = test.services;
  prisma = services.prisma;
  close = () => test.db.close();
  const connection = await prisma.connection.create({
    data: { kind: "PROXMOX", name: "lab", baseUrl: "https://pve.example:8006", username: "u" },
  });
  for (const name of ["Lab", "Prod", "Hand"]) {
    await prisma.connectionGroup.create({
      data: { name, connections: { create: { connectionId: connection.id } } },
    });
  }
});

afterAll(async () => {
  await close?.();
});

function provider(overrides: Partial<IdentityProviderConfig> = {}): IdentityProviderConfig {
  return {
    source: "ENVIRONMENT",
    id: undefined,
    slug: "corp",
    kind: "OIDC",
    displayName: "Corp",
    logoText: undefined,
    isEnabled: true,
    createJustInTime: true,
    hasSecret: false,
    secret: () => undefined,
    groupMappings: [
      {
        group: "viewers",
        capabilities: ["VIEW_INVENTORY"],
        isAdmin: false,
        allConnections: false,
        connectionGroups: ["Lab"],
      },
      {
        group: "operators",
        capabilities: ["VIEW_INVENTORY", "RUN_SYNC"],
        isAdmin: false,
        allConnections: false,
        connectionGroups: ["Prod", "Missing"],
      },
      {
        group: "admins",
        capabilities: [],
        isAdmin: true,
        allConnections: true,
        connectionGroups: [],
      },
    ],
    settings: {
      issuer: "https://sso.example",
      clientId: "hyperlens",
      scopes: "openid",
      subjectClaim: "sub",
      usernameClaim: "preferred_username",
      emailClaim: "email",
      groupsClaim: "groups",
    },
    ...overrides,
  } as IdentityProviderConfig;
}

const origin = { address: "192.0.2.7", userAgent: "test" };

async function signInAs(
  subject: string,
  groups: string[],
  options: { provider?: IdentityProviderConfig; username?: string; email?: string } = {},
) {
  return signInExternalIdentity(
    prisma,
    options.provider ?? provider(),
    { subject, preferredUsername: options.username ?? subject, email: options.email, groups },
    origin,
    services.sessionPolicy,
  );
}

async function grantsOf(userId: string) {
  const grants = await prisma.userGroupGrant.findMany({
    where: { userId },
    include: { group: true },
  });
  return grants.map((g) => `${g.group.name}:${g.source ?? "hand"}`).sort();
}

describe("signing in with an external identity", () => {
  it("creates the account just in time, maps its groups and records the session's method", async () => {
    const result = await signInAs("sub-alice", ["viewers", "unmapped"], { username: "alice" });
    if (!result.ok) throw new Error(result.message);
    expect(result.isNewUser).toBe(true);
    const user = await prisma.user.findUniqueOrThrow({ where: { id: result.userId } });
    expect(user).toMatchObject({
      username: "alice",
      passwordHash: null,
      capabilities: ["VIEW_INVENTORY"],
      isAdmin: false,
      allConnections: false,
    });
    expect(await grantsOf(user.id)).toEqual(["Lab:corp"]);
    const identity = await prisma.userIdentity.findFirstOrThrow({ where: { userId: user.id } });
    expect(identity).toMatchObject({ provider: "corp", subject: "sub-alice" });
    expect(identity.externalGroups).toEqual(["viewers", "unmapped"]);
    const session = await prisma.session.findFirstOrThrow({ where: { userId: user.id } });
    expect(session).toMatchObject({ method: "corp", address: "192.0.2.7", userAgent: "test" });
    const audit = await prisma.auditLog.findMany({ where: { targetId: user.id } });
    expect(audit.map((a) => a.action).sort()).toEqual(["auth.external.sign_in", "user.create"]);
  });

  it("re-applies the mapping at every sign-in: a group change takes effect, hand grants stay", async () => {
    const first = await signInAs("sub-bob", ["viewers"], { username: "bob" });
    if (!first.ok) throw new Error(first.message);
    const hand = await prisma.connectionGroup.findUniqueOrThrow({ where: { name: "Hand" } });
    await prisma.userGroupGrant.create({ data: { userId: first.userId, groupId: hand.id } });

    const second = await signInAs("sub-bob", ["operators"], { username: "bob" });
    if (!second.ok) throw new Error(second.message);
    expect(second.userId).toBe(first.userId);
    expect(second.isNewUser).toBe(false);
    const user = await prisma.user.findUniqueOrThrow({ where: { id: first.userId } });
    expect(user.capabilities).toEqual(["VIEW_INVENTORY", "RUN_SYNC"]);
    // Lab (the old mapping) is gone, Prod came, Hand (granted by hand) stayed; Missing has no group.
    expect(await grantsOf(user.id)).toEqual(["Hand:hand", "Prod:corp"]);
    const audit = await prisma.auditLog.findFirstOrThrow({
      where: { targetId: user.id, action: "auth.external.sign_in" },
      orderBy: { at: "desc" },
    });
    expect(audit.details).toMatchObject({ missingConnectionGroups: ["Missing"] });

    const third = await signInAs("sub-bob", ["admins", "viewers"], { username: "bob" });
    if (!third.ok) throw new Error(third.message);
    expect(await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      isAdmin: true,
      allConnections: true,
    });

    // Leaving every mapped group leaves no capabilities, no admin, and no provider grants.
    const fourth = await signInAs("sub-bob", [], { username: "bob" });
    if (!fourth.ok) throw new Error(fourth.message);
    expect(await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      capabilities: [],
      isAdmin: false,
      allConnections: false,
    });
    expect(await grantsOf(user.id)).toEqual(["Hand:hand"]);
  });

  it("never links a local account by e-mail or name: a new account with a free name is made", async () => {
    const local = await createUser(
      prisma,
      { username: "carol", password: TEST_PASSWORD, isAdmin: true },
      null,
    );
    const result = await signInAs("sub-carol", ["viewers"], {
      username: "Carol",
      email: "carol@example.com",
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.userId).not.toBe(local.id);
    expect(result.username).toBe("Carol-2");
    expect(await prisma.user.findUniqueOrThrow({ where: { id: local.id } })).toMatchObject({
      isAdmin: true,
    });
    expect(await prisma.userIdentity.count({ where: { userId: local.id } })).toBe(0);
  });

  it("refuses an unknown subject when the provider does not create accounts", async () => {
    const result = await signInAs("sub-dave", ["admins"], {
      provider: provider({ createJustInTime: false }),
    });
    expect(result).toMatchObject({ ok: false, reason: "NO_ACCOUNT" });
    expect(await prisma.user.count({ where: { username: "sub-dave" } })).toBe(0);
  });

  it("lets a linked subject in when the provider does not create accounts", async () => {
    const first = await signInAs("sub-erin", ["viewers"]);
    if (!first.ok) throw new Error(first.message);
    const again = await signInAs("sub-erin", ["viewers"], {
      provider: provider({ createJustInTime: false }),
    });
    expect(again).toMatchObject({ ok: true, userId: first.userId });
  });

  it("refuses a disabled account and a disabled provider, and creates no session", async () => {
    const first = await signInAs("sub-frank", ["viewers"]);
    if (!first.ok) throw new Error(first.message);
    await prisma.user.update({ where: { id: first.userId }, data: { disabledAt: new Date() } });
    const sessionsBefore = await prisma.session.count({ where: { userId: first.userId } });
    expect(await signInAs("sub-frank", ["admins"])).toMatchObject({
      ok: false,
      reason: "ACCOUNT_DISABLED",
    });
    expect(await prisma.user.findUniqueOrThrow({ where: { id: first.userId } })).toMatchObject({
      isAdmin: false,
    });
    expect(await prisma.session.count({ where: { userId: first.userId } })).toBe(sessionsBefore);

    expect(
      await signInAs("sub-grace", ["viewers"], { provider: provider({ isEnabled: false }) }),
    ).toMatchObject({ ok: false, reason: "PROVIDER_DISABLED" });
  });

  it("keeps the same subject of two providers apart", async () => {
    const a = await signInAs("shared-sub", ["viewers"], { username: "hank" });
    const b = await signInAs("shared-sub", ["viewers"], {
      username: "hank",
      provider: provider({ slug: "other" }),
    });
    if (!a.ok || !b.ok) throw new Error("sign-in failed");
    expect(a.userId).not.toBe(b.userId);
  });
});

describe("user names for new accounts", () => {
  it("keep the characters user names allow and fall back to the e-mail's local part", () => {
    expect(usernameBase("Jane Doe (IT)", undefined)).toBe("Jane-Doe-IT");
    expect(usernameBase(undefined, "j.doe@example.com")).toBe("j.doe");
    expect(usernameBase("--", undefined)).toBe("user");
    expect(usernameBase("x".repeat(100), undefined)).toHaveLength(60);
  });
});
