// node(id) and nodes(ids) reach every type that implements Node by id alone, past the list fields
// and their rules. These tests walk the Node types of the built schema, so a new one is covered as
// soon as it exists (the first test asks for its list field below).
import { randomUUID } from "node:crypto";
import { runSync } from "@hyperlens/sync";
import { decodeGlobalID, encodeGlobalID } from "@pothos/plugin-relay";
import { type GraphQLInterfaceType, isInterfaceType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConnectionGroup } from "../services/connection-groups.ts";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";
import { schema } from "./index.ts";

const nodeInterface = schema.getType("Node");
if (!isInterfaceType(nodeInterface)) throw new Error("the schema has no Node interface");
/** Every object type implementing Node, as the schema says — not as this file remembers. */
const NODE_TYPES = schema
  .getPossibleTypes(nodeInterface as GraphQLInterfaceType)
  .map((type) => type.name)
  .sort();

const VMS =
  "{ virtualMachines(first: 500, filter: { includeRemoved: true }) { edges { node { id } } } }";
/** The list field each Node type is shown through; node(id) must show exactly what it shows. */
const LIST_OF: Record<string, string> = {
  ApiToken: "{ apiTokens { id } }",
  AuditLogEntry: "{ auditLog(first: 500) { edges { node { id } } } }",
  Connection: "{ connections { id } }",
  ConnectionGroup: "{ connectionGroups { id } }",
  EdgeGateway: "{ edgeGateways(includeRemoved: true) { id } }",
  HypervisorNode: "{ hypervisorNodes { id } }",
  ProxmoxGuest: VMS,
  SavedView: "{ savedViews { id } }",
  Session: "{ mySessions { id } }",
  SyncRun: "{ syncRuns(first: 500) { edges { node { id } } } }",
  User: "{ users { id } }",
  VcdVm: VMS,
  VcenterVm: VMS,
  WebhookEndpoint: "{ webhookEndpoints { id } }",
};

const NODE = "query($id: ID!) { node(id: $id) { __typename id } }";
const NODES = "query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }";

type Found = { __typename: string; id: string } | null;

let app: TestApp;
/** Request headers of each kind of caller, by a name that says who it is. */
const callers: Record<string, Record<string, string>> = { anonymous: {} };
/** The global ids of every row the administrator's list fields show, by type name. */
const idsByType = new Map<string, string[]>();

/** Every `id` anywhere in a response's data. */
function idsIn(data: unknown): string[] {
  if (Array.isArray(data)) return data.flatMap(idsIn);
  if (data === null || typeof data !== "object") return [];
  return Object.entries(data).flatMap(([key, value]) =>
    key === "id" && typeof value === "string" ? [value] : idsIn(value),
  );
}

/** The distinct error codes of a response; an error without a code counts as "none". */
const codesOf = (errors: { extensions?: { code?: string } }[] | undefined) =>
  [...new Set((errors ?? []).map((error) => error.extensions?.code ?? "none"))].sort();

async function createToken(cookie: string, capabilities: string[]) {
  const res = await app.graphql<{ createApiToken: { data?: { token: string } } }>(
    `mutation($caps: [Capability!]!) { createApiToken(name: "walk", capabilities: $caps) {
      ... on MutationCreateApiTokenSuccess { data { token } } } }`,
    { caps: capabilities },
    { cookie },
  );
  const token = res.body.data?.createApiToken.data?.token;
  if (!token) throw new Error(JSON.stringify(res.body));
  return { authorization: `Bearer ${token}` };
}

/** One connection of a kind with a guest, and its nodes or edge gateways, synced as production does. */
async function seedSource(kind: "PROXMOX" | "VCD" | "VCENTER") {
  const connection = await seedConnection(app.services, kind, `walk-${kind.toLowerCase()}`, []);
  await runSync({
    prisma: app.services.prisma,
    connectionId: connection.id,
    source: kind,
    trigger: "MANUAL",
    read: async () => ({
      ...(kind === "VCD"
        ? {
            edgeGateways: {
              isComplete: true,
              items: [{ externalId: "edge-1", name: "edge", details: {} }],
            },
          }
        : { nodes: [{ externalId: "node-1", name: "node-1", isOnline: true, details: {} }] }),
      lists: [{ key: "vms", status: "ok", vms: [neutralVm("101", { name: `guest-${kind}` })] }],
    }),
  });
}

beforeAll(async () => {
  const started = await startTestAppAsAdmin();
  app = started.app;
  callers.admin = { cookie: started.admin };
  callers.tokenOwner = {
    cookie: await app.signedInAs("owner", { capabilities: ["VIEW_INVENTORY"] }),
  };
  callers.otherViewer = {
    cookie: await app.signedInAs("bystander", { capabilities: ["VIEW_INVENTORY"] }),
  };
  callers.userManager = {
    cookie: await app.signedInAs("user-manager", { capabilities: ["MANAGE_USERS"] }),
  };
  callers.proxmoxManager = {
    cookie: await app.signedInAs("proxmox-manager", { capabilities: ["MANAGE_PROXMOX"] }),
  };
  callers.viewToken = await createToken(callers.tokenOwner.cookie ?? "", ["VIEW_INVENTORY"]);
  callers.usersToken = await createToken(started.admin, ["MANAGE_USERS"]);
  for (const kind of ["PROXMOX", "VCD", "VCENTER"] as const) await seedSource(kind);
  await createConnectionGroup(app.services.prisma, { name: "walk-group" }, null);
  await app.graphql(
    'mutation { saveView(name: "walk", query: "q=walk") { __typename } }',
    {},
    callers.admin,
  );
  const sealed = app.services.secrets.seal("whsec_walk", "walk");
  await app.services.prisma.webhookEndpoint.create({
    data: {
      url: "https://receiver.invalid/hook",
      secretCiphertext: sealed.ciphertext,
      secretKeyId: sealed.keyId,
    },
  });

  for (const type of NODE_TYPES) {
    const query = LIST_OF[type];
    if (!query) continue;
    const res = await app.graphql(query, {}, callers.admin);
    const ids = idsIn(res.body.data).filter((id) => decodeGlobalID(id).typename === type);
    idsByType.set(type, ids);
  }
});
afterAll(async () => app?.close());

describe("node(id) and nodes(ids)", () => {
  it("know the list field of every Node type in the schema, and each has a row to look up", () => {
    expect(Object.keys(LIST_OF).sort()).toEqual(NODE_TYPES);
    for (const type of NODE_TYPES) expect(idsByType.get(type), type).not.toEqual([]);
  });

  // Issue 20 item 7: node(id) handed any signed-in user another user's API token.
  it("show a row to exactly the callers its list field shows it to, and nothing to the others", async () => {
    const mismatches: string[] = [];
    for (const type of NODE_TYPES) {
      const ids = idsByType.get(type) ?? [];
      for (const [caller, headers] of Object.entries(callers)) {
        const list = await app.graphql(LIST_OF[type] ?? "", {}, headers);
        const listed = new Set(idsIn(list.body.data));
        // A caller the list answers sees nothing more and learns nothing (no error, only null);
        // one it refuses gets null, or the same refusal.
        const refusal = codesOf(list.body.errors);
        const expected = ids.map((id) => (listed.has(id) ? { __typename: type, id } : null));

        const single = await Promise.all(
          ids.map((id) => app.graphql<{ node: Found }>(NODE, { id }, headers)),
        );
        const many = await app.graphql<{ nodes: Found[] }>(NODES, { ids }, headers);
        const got = single.map((res) => res.body.data?.node ?? null);
        const codes = codesOf(single.flatMap((res) => res.body.errors ?? []));
        const unexpected = (errors: string[]) => errors.filter((code) => !refusal.includes(code));
        const say = (what: string, value: unknown) =>
          mismatches.push(`${type} as ${caller}: ${what} ${JSON.stringify(value)}`);
        if (JSON.stringify(got) !== JSON.stringify(expected)) say("node(id) gave", got);
        if (unexpected(codes).length) say("node(id) errors", codes);
        if (JSON.stringify(many.body.data?.nodes ?? null) !== JSON.stringify(expected))
          say("nodes(ids) gave", many.body.data?.nodes ?? many.body.errors);
        if (unexpected(codesOf(many.body.errors)).length)
          say("nodes(ids) errors", codesOf(many.body.errors));
      }
    }
    expect(mismatches).toEqual([]);
  });

  // Issue 20 item 15: a missing row was Prisma's findUniqueOrThrow, masked as "Unexpected error."
  it("give null for an id that names no row of its type, for every Node type", async () => {
    const oneOfEach = NODE_TYPES.map((type) => idsByType.get(type)?.[0] ?? "");
    const mismatches: string[] = [];
    for (const type of NODE_TYPES) {
      const existing = idsByType.get(type)?.[0] ?? "";
      // A row that never existed, and rows of other types (other VM variants among them) named as this one.
      const missing = [
        encodeGlobalID(type, randomUUID()),
        ...oneOfEach
          .filter((id) => decodeGlobalID(id).typename !== type)
          .map((id) => encodeGlobalID(type, decodeGlobalID(id).id)),
      ];
      for (const id of missing) {
        const res = await app.graphql<{ node: Found }>(NODE, { id }, callers.admin);
        if (res.body.data?.node !== null || res.body.errors)
          mismatches.push(`${type} ${decodeGlobalID(id).id}: ${JSON.stringify(res.body)}`);
      }
      const res = await app.graphql<{ nodes: Found[] }>(
        NODES,
        { ids: [existing, ...missing] },
        callers.admin,
      );
      const want = [{ __typename: type, id: existing }, ...missing.map(() => null)];
      if (JSON.stringify(res.body) !== JSON.stringify({ data: { nodes: want } }))
        mismatches.push(`${type} nodes(ids): ${JSON.stringify(res.body)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it("give null for a guest and its connection once the connection is deleted", async () => {
    const connection = await seedConnection(app.services, "PROXMOX", "doomed", [
      neutralVm("7", { name: "doomed-guest" }),
    ]);
    const listed = await app.graphql(
      '{ virtualMachines(filter: { search: "doomed-guest" }) { edges { node { id } } } }',
      {},
      callers.admin,
    );
    const [vmId] = idsIn(listed.body.data);
    const connectionId = encodeGlobalID("Connection", connection.id);
    const deleted = await app.graphql(
      "mutation($id: ID!) { deleteConnection(id: $id) }",
      { id: connectionId },
      callers.admin,
    );
    expect(deleted.body.errors).toBeUndefined();
    for (const id of [vmId, connectionId]) {
      expect((await app.graphql(NODE, { id }, callers.admin)).body).toEqual({
        data: { node: null },
      });
    }
    expect((await app.graphql(NODES, { ids: [vmId, connectionId] }, callers.admin)).body).toEqual({
      data: { nodes: [null, null] },
    });
  });

  it("refuse a malformed id as bad input, naming it", async () => {
    const malformed = [
      "Connection:x",
      "not base64!",
      encodeGlobalID("Connection", "x"),
      "",
      // Well-formed, but naming no type that is a Node: unknown, an interface, a plain object.
      encodeGlobalID("Nope", randomUUID()),
      encodeGlobalID("VirtualMachine", randomUUID()),
      encodeGlobalID("SyncCounts", randomUUID()),
    ];
    const valid = idsByType.get("Connection")?.[0] ?? "";
    for (const id of malformed) {
      const refusal = {
        message: `Invalid global ID: ${id}`,
        extensions: { code: "BAD_USER_INPUT", field: "id" },
      };
      const single = await app.graphql(NODE, { id }, callers.admin);
      expect(single.body.data).toEqual({ node: null });
      expect(single.body.errors).toMatchObject([refusal]);
      const many = await app.graphql(NODES, { ids: [valid, id] }, callers.admin);
      expect(many.body.errors).toMatchObject([refusal]);
    }
  });
});
