// Connection groups and grants (docs/behaviour.md §7.9–§7.12): what a grant shows, what a token
// limited to groups may hold, what a hidden connection answers to, and that an upgrade hides nothing.
import { randomUUID } from "node:crypto";
import { decodeGlobalID, encodeGlobalID } from "@pothos/plugin-relay";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { SyncProgress } from "../syncs/progress-events.ts";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

let app: TestApp;
let admin: string;
const ids = { red: "", blue: "", redPve: "", bluePve: "", user: "" };
let userCookie = "";

type Body = {
  data?: Record<string, unknown> | null;
  errors?: { extensions?: { code?: string }; message: string }[];
};

async function as(cookie: string, query: string, variables: Record<string, unknown> = {}) {
  return (await app.graphql(query, variables, { cookie })).body as Body;
}

const gid = (type: string, id: string) => encodeGlobalID(type, id);

async function createGroup(name: string) {
  const body = await as(
    admin,
    `mutation($n: String!) { createConnectionGroup(name: $n) { __typename
      ... on MutationCreateConnectionGroupSuccess { data { id } } ... on ValidationError { message field } } }`,
    { n: name },
  );
  return body.data?.createConnectionGroup as {
    __typename: string;
    data?: { id: string };
    message?: string;
    field?: string;
  };
}

async function grant(userId: string, allConnections: boolean, groups: string[]) {
  const body = await as(
    admin,
    `mutation($u: ID!, $a: Boolean!, $g: [ID!]!) { setUserConnectionGrants(userId: $u, allConnections: $a, groupIds: $g) { __typename } }`,
    { u: gid("User", userId), a: allConnections, g: groups.map((g) => gid("ConnectionGroup", g)) },
  );
  expect(body.errors).toBeUndefined();
}

async function createToken(cookie: string, allConnections: boolean, groups: string[]) {
  const body = await as(
    cookie,
    `mutation($a: Boolean, $g: [ID!]) { createApiToken(name: "t", capabilities: [VIEW_INVENTORY], allConnections: $a, groupIds: $g) {
      __typename ... on MutationCreateApiTokenSuccess { data { token } } ... on ValidationError { message field } } }`,
    { a: allConnections, g: groups.map((g) => gid("ConnectionGroup", g)) },
  );
  return body.data?.createApiToken as {
    __typename: string;
    data?: { token: string };
    message?: string;
    field?: string;
  };
}

const CONNECTIONS = "{ connections { name } }";
const namesOf = (body: Body) =>
  ((body.data?.connections ?? []) as { name: string }[]).map((c) => c.name).sort();

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
  ids.red = decodeGlobalID((await createGroup("Red"))?.data?.id ?? "").id;
  ids.blue = decodeGlobalID((await createGroup("Blue"))?.data?.id ?? "").id;
  ids.redPve = (await seedConnection(app.services, "PROXMOX", "red-pve", [neutralVm("1")])).id;
  ids.bluePve = (await seedConnection(app.services, "PROXMOX", "blue-pve", [neutralVm("2")])).id;
  for (const [connection, group] of [
    [ids.redPve, ids.red],
    [ids.bluePve, ids.blue],
  ] as const) {
    const body = await as(
      admin,
      `mutation($c: ID!, $g: [ID!]!) { setConnectionGroups(connectionId: $c, groupIds: $g) { __typename } }`,
      { c: gid("Connection", connection), g: [gid("ConnectionGroup", group)] },
    );
    expect(body.errors).toBeUndefined();
  }
  userCookie = await app.signedInAs("red-user", {
    capabilities: ["VIEW_INVENTORY", "RUN_SYNC", "MANAGE_PROXMOX"],
  });
  ids.user = (
    await app.services.prisma.user.findFirstOrThrow({ where: { username: "red-user" } })
  ).id;
});
afterAll(async () => app?.close());

describe("connection groups", () => {
  // docs/behaviour.md §7.12: nothing an upgrade finds is hidden; allConnections defaults to true.
  it("hide nothing from a user or token that existed before groups (all connections by default)", async () => {
    const before = await app.signedInAs("old-timer", { capabilities: ["VIEW_INVENTORY"] });
    const token = await createToken(before, true, []);
    expect(namesOf(await as(before, CONNECTIONS))).toEqual(["blue-pve", "red-pve"]);
    const res = await app.graphql(
      CONNECTIONS,
      {},
      { authorization: `Bearer ${token.data?.token}` },
    );
    expect(namesOf(res.body as Body)).toEqual(["blue-pve", "red-pve"]);
    const row = await app.services.prisma.user.findFirstOrThrow({
      where: { username: "old-timer" },
    });
    expect(row.allConnections).toBe(true);
  });

  it("show a user granted a group only its connections, and an administrator every one", async () => {
    await grant(ids.user, false, [ids.red]);
    expect(namesOf(await as(userCookie, CONNECTIONS))).toEqual(["red-pve"]);
    expect(namesOf(await as(admin, CONNECTIONS))).toEqual(["blue-pve", "red-pve"]);
    const groups = await as(
      userCookie,
      "{ connectionGroups { name } viewer { allConnections connectionGroups { name } } }",
    );
    expect(groups.data).toEqual({
      connectionGroups: [{ name: "Red" }],
      viewer: { allConnections: false, connectionGroups: [{ name: "Red" }] },
    });
  });

  // docs/behaviour.md §7.10: a hidden connection is a missing one, never FORBIDDEN.
  it("answer sync, test, edit, regroup and delete of a hidden connection as for a missing id", async () => {
    await grant(ids.user, false, [ids.red]);
    const mutations = [
      `mutation($id: ID!) { syncConnection(id: $id) { id } }`,
      `mutation($id: ID!) { testConnection(id: $id) { ok } }`,
      `mutation($id: ID!) { deleteConnection(id: $id) }`,
      `mutation($id: ID!) { saveProxmoxConnection(input: { id: $id, name: "x", url: "https://x.invalid", username: "a@pve" }) { __typename } }`,
      `mutation($id: ID!) { setConnectionGroups(connectionId: $id, groupIds: []) { __typename } }`,
    ];
    for (const mutation of mutations) {
      const hidden = await as(userCookie, mutation, { id: gid("Connection", ids.bluePve) });
      const missing = await as(userCookie, mutation, { id: gid("Connection", randomUUID()) });
      const codes = (body: Body) => body.errors?.map((e) => e.extensions?.code);
      expect(codes(hidden), mutation).toEqual(["NOT_FOUND"]);
      expect(codes(hidden), mutation).toEqual(codes(missing));
    }
    const runs = await app.services.prisma.syncRun.count({ where: { connectionId: ids.bluePve } });
    expect(runs).toBe(1);
    expect(await app.services.prisma.connection.count({ where: { id: ids.bluePve } })).toBe(1);
  });

  it("start syncAll only for the connections the caller sees", async () => {
    await grant(ids.user, false, [ids.red]);
    const body = await as(userCookie, "mutation { syncAll { connection { name } } }");
    expect(body.data?.syncAll).toEqual([{ connection: { name: "red-pve" } }]);
  });

  // docs/behaviour.md §7.11: a token's groups are a subset of its creator's, and stay one.
  it("limit a token only to groups its creator is granted, and narrow it when the creator loses one", async () => {
    await grant(ids.user, false, [ids.red]);
    const refused = await createToken(userCookie, false, [ids.blue]);
    expect(refused).toMatchObject({ __typename: "ValidationError", field: "groupIds" });
    expect(refused.message).toMatch(/groups you are granted/);
    const none = await createToken(userCookie, false, []);
    expect(none).toMatchObject({ __typename: "ValidationError", field: "groupIds" });

    const token = await createToken(userCookie, false, [ids.red]);
    const bearer = { authorization: `Bearer ${token.data?.token}` };
    expect(namesOf((await app.graphql(CONNECTIONS, {}, bearer)).body as Body)).toEqual(["red-pve"]);
    // The creator is moved to Blue: the token, limited to Red, now sees nothing.
    await grant(ids.user, false, [ids.blue]);
    expect(namesOf((await app.graphql(CONNECTIONS, {}, bearer)).body as Body)).toEqual([]);
    await grant(ids.user, false, [ids.red]);
  });

  it("let an administrator limit a token to any group", async () => {
    const token = await createToken(admin, false, [ids.blue]);
    const bearer = { authorization: `Bearer ${token.data?.token}` };
    expect(namesOf((await app.graphql(CONNECTIONS, {}, bearer)).body as Body)).toEqual([
      "blue-pve",
    ]);
  });

  it("refuse a second group of the same name in any case, with the existing name", async () => {
    const clash = await createGroup("rED");
    expect(clash).toMatchObject({ __typename: "ValidationError", field: "name" });
    expect(clash.message).toBe("A group named Red already exists.");
    const blank = await createGroup("   ");
    expect(blank).toMatchObject({ __typename: "ValidationError", field: "name" });
    const rename = await as(
      admin,
      `mutation($id: ID!) { updateConnectionGroup(id: $id, name: "BLUE") { __typename ... on ValidationError { message } } }`,
      { id: gid("ConnectionGroup", ids.red) },
    );
    expect(rename.data?.updateConnectionGroup).toEqual({
      __typename: "ValidationError",
      message: "A group named Blue already exists.",
    });
  });

  it("let only user managers manage groups and grants, and audit each change", async () => {
    const body = await as(
      userCookie,
      `mutation { createConnectionGroup(name: "Mine") { __typename } }`,
    );
    expect(body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const grants = await as(
      userCookie,
      `mutation($u: ID!) { setUserConnectionGrants(userId: $u, allConnections: true, groupIds: []) { __typename } }`,
      { u: gid("User", ids.user) },
    );
    expect(grants.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const actions = (await app.services.prisma.auditLog.findMany()).map((e) => e.action);
    for (const action of [
      "connectionGroup.create",
      "connection.groups",
      "user.grants",
      "token.create",
    ])
      expect(actions).toContain(action);
  });

  // docs/behaviour.md §7.16: a tenant's user manager grants no more than they see.
  it("let a user manager who sees some groups grant only those", async () => {
    const manager = await app.signedInAs("red-manager", {
      capabilities: ["VIEW_INVENTORY", "MANAGE_USERS"],
    });
    const managerId = (
      await app.services.prisma.user.findFirstOrThrow({ where: { username: "red-manager" } })
    ).id;
    await grant(managerId, false, [ids.red]);
    await app.signedInAs("red-newcomer", { capabilities: ["VIEW_INVENTORY"] });
    const newcomer = (
      await app.services.prisma.user.findFirstOrThrow({ where: { username: "red-newcomer" } })
    ).id;
    const grantAs = (allConnections: boolean, groups: string[]) =>
      as(
        manager,
        `mutation($u: ID!, $a: Boolean!, $g: [ID!]!) { setUserConnectionGrants(userId: $u, allConnections: $a, groupIds: $g) {
          __typename ... on ValidationError { field } } }`,
        {
          u: gid("User", newcomer),
          a: allConnections,
          g: groups.map((g) => gid("ConnectionGroup", g)),
        },
      );
    expect((await grantAs(true, [])).errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await grantAs(false, [ids.blue])).data?.setUserConnectionGrants).toEqual({
      __typename: "ValidationError",
      field: "groupIds",
    });
    expect((await grantAs(false, [ids.red])).data?.setUserConnectionGrants).toEqual({
      __typename: "MutationSetUserConnectionGrantsSuccess",
    });
  });

  it("require a user who sees only some connections to put a new one in one of their groups", async () => {
    await grant(ids.user, false, [ids.red]);
    const save = (groups: string[] | null) =>
      as(
        userCookie,
        `mutation($g: [ID!]) { saveProxmoxConnection(input: { name: "new-${groups?.length ?? "x"}", url: "https://new.invalid", username: "a@pve", secret: "s", groupIds: $g }) {
          __typename ... on ValidationError { field message } } }`,
        { g: groups?.map((g) => gid("ConnectionGroup", g)) ?? null },
      );
    expect((await save(null)).data?.saveProxmoxConnection).toMatchObject({ field: "groupIds" });
    expect((await save([ids.blue])).data?.saveProxmoxConnection).toMatchObject({
      field: "groupIds",
    });
    expect((await save([ids.red])).data?.saveProxmoxConnection).toMatchObject({
      __typename: "MutationSaveProxmoxConnectionSuccess",
    });
    expect(namesOf(await as(userCookie, CONNECTIONS))).toEqual(["new-1", "red-pve"]);
  });

  // docs/behaviour.md §7.18: a name is refused only for a clash the saver can see.
  it("let a tenant use a name a hidden connection has, and refuse one they can see", async () => {
    await grant(ids.user, false, [ids.red]);
    const save = (cookie: string, name: string, id?: string) =>
      as(
        cookie,
        `mutation($n: String!, $id: ID, $g: [ID!]) { saveProxmoxConnection(input: { id: $id, name: $n, url: "https://same.invalid", username: "a@pve", secret: "s", groupIds: $g }) {
          __typename ... on ValidationError { field message } } }`,
        {
          n: name,
          id: id ? gid("Connection", id) : null,
          g: id ? null : [gid("ConnectionGroup", ids.red)],
        },
      );
    expect((await save(userCookie, "blue-pve")).data?.saveProxmoxConnection).toEqual({
      __typename: "MutationSaveProxmoxConnectionSuccess",
    });
    expect((await save(userCookie, "red-pve")).data?.saveProxmoxConnection).toEqual({
      __typename: "ValidationError",
      field: "name",
      message: "Another connection is already named red-pve.",
    });
    // The administrator sees both blue-pve and can still save either under the name it has.
    expect((await save(admin, "blue-pve", ids.bluePve)).data?.saveProxmoxConnection).toEqual({
      __typename: "MutationSaveProxmoxConnectionSuccess",
    });
  });

  // docs/behaviour.md §7.9: progress of a connection the subscriber does not see never reaches them.
  it("deliver a subscriber only the progress of the connections they see", async () => {
    await grant(ids.user, false, [ids.red]);
    const client = createClient({
      url: `${app.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: {
        authorization: `Bearer ${(await createToken(userCookie, true, [])).data?.token}`,
      },
      retryAttempts: 0,
    });
    const seen: string[] = [];
    const onlyBlue: string[] = [];
    const sub = (query: string, into: string[], onEvent?: () => void) =>
      client.subscribe<{ syncProgress: { connectionId: string } }>(
        { query },
        {
          next: ({ data }) => {
            if (data) into.push(decodeGlobalID(data.syncProgress.connectionId).id);
            onEvent?.();
          },
          error: () => {},
          complete: () => {},
        },
      );
    let arrived: () => void = () => {};
    const redArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    sub("subscription { syncProgress { connectionId } }", seen, () => {
      if (seen.includes(ids.redPve)) arrived();
    });
    sub(
      `subscription { syncProgress(connectionId: "${gid("Connection", ids.bluePve)}") { connectionId } }`,
      onlyBlue,
    );
    await new Promise((r) => setTimeout(r, 300));
    const event = (connectionId: string): SyncProgress => ({
      connectionId,
      syncRunId: null,
      at: new Date().toISOString(),
      event: { type: "started", connectionId, syncRunId: randomUUID(), dryRun: false },
    });
    app.services.events.publish("sync:connection", ids.bluePve, event(ids.bluePve));
    app.services.events.publish("sync:all", event(ids.bluePve));
    app.services.events.publish("sync:all", event(ids.redPve));
    await redArrived;
    await client.dispose();
    expect(seen).toEqual([ids.redPve]);
    expect(onlyBlue).toEqual([]);
  });
});
