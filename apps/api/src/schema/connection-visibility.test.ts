import { type ConnectionKind, type NeutralVm, normalizeHost } from "@hyperlens/shared";
import { runSync } from "@hyperlens/sync";
import { decodeGlobalID, encodeGlobalID } from "@pothos/plugin-relay";
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveConnection } from "../services/connections.ts";
import { neutralVm } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";
import { schema } from "./index.ts";

let app: TestApp;
let admin: string;

/** Every string the other group ("bravo") owns: its rows' ids, names, addresses and MACs. */
const hidden = { ids: new Set<string>(), markers: ["bravo", "10.66.", "bb:bb:"] };
/** What the granted group ("alpha") owns: the walk must show these, or it walked nothing. */
const shown = [
  "alpha-pve",
  "alpha-vcd",
  "alpha-group",
  "alpha-guest",
  "alpha-node",
  "alpha-edge",
  "10.55.0.1",
  "aa:aa:00:00:00:01",
];
const groupIds: Record<"alpha" | "bravo", string> = { alpha: "", bravo: "" };
const connectionIds: Record<string, string> = {};

async function gql<T = Record<string, unknown>>(
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string>,
) {
  const res = await app.graphql<T>(query, variables, headers);
  return res.body;
}

async function asAdmin<T = Record<string, unknown>>(
  query: string,
  variables: Record<string, unknown> = {},
) {
  const body = await gql<T>(query, variables, { cookie: admin });
  if (body.errors)
    throw new Error(
      JSON.stringify(body.errors) + app.logLines.filter((l) => l.includes("rror")).join("\n"),
    );
  return body.data as T;
}

function guest(
  prefix: string,
  externalId: string,
  octet: string,
  overrides: Partial<NeutralVm> = {},
) {
  const mac = prefix === "alpha" ? "aa:aa" : "bb:bb";
  const net = prefix === "alpha" ? "10.55" : "10.66";
  return neutralVm(externalId, {
    name: `${prefix}-guest-${externalId}`,
    nics: [{ key: "net0", mac: `${mac}:00:00:00:${octet}`, network: `${prefix}-net` }],
    ips: [
      { address: `${net}.0.${Number(octet)}`, origin: "AGENT", nicKey: "net0", isAccepted: true },
      { address: "169.254.1.1", origin: "AGENT", isAccepted: false, rejectReason: "link-local" },
    ],
    disks: [{ key: "scsi0", capacityBytes: 1024, storage: `${prefix}-store` }],
    tags: [`${prefix}-tag`],
    location: { nodeName: `${prefix}-node-1`, orgName: `${prefix}-org` },
    ...overrides,
  });
}

/** A connection of `kind` in `group`, synced twice (so it has history and two runs). */
async function seedSource(
  group: "alpha" | "bravo",
  kind: ConnectionKind,
  name: string,
  vms: NeutralVm[],
  url = `https://${name}.invalid`,
) {
  const connection = await saveConnection(
    app.services.prisma,
    app.services.secrets,
    kind,
    { name, url, username: kind === "PROXMOX" ? "seed@pve" : "seed@org", secret: "unused" },
    null,
    app.services.targetPolicy,
  );
  connectionIds[name] = connection.id;
  for (const state of ["RUNNING", "STOPPED"] as const) {
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
                items: [{ externalId: `${name}-edge`, name: `${group}-edge`, details: {} }],
              },
            }
          : {
              nodes: [
                { externalId: `${name}-n1`, name: `${group}-node-1`, isOnline: true, details: {} },
              ],
            }),
        lists: [{ key: "vms", status: "ok", vms: vms.map((vm) => ({ ...vm, state })) }],
      }),
    });
  }
  return connection.id;
}

const SET_GROUPS = `mutation($c: ID!, $g: [ID!]!) { setConnectionGroups(connectionId: $c, groupIds: $g) {
  __typename ... on ValidationError { message } } }`;

async function createGroup(name: string) {
  const data = await asAdmin<{ createConnectionGroup: { data: { id: string } } }>(
    `mutation($n: String!) { createConnectionGroup(name: $n, description: "the ${name} tenant") {
      ... on MutationCreateConnectionGroupSuccess { data { id } } } }`,
    { n: name },
  );
  return decodeGlobalID(data.createConnectionGroup.data.id).id;
}

async function tokenOf(
  cookie: string,
  variables: { allConnections: boolean; groupIds: string[] },
): Promise<Record<string, string>> {
  const body = await gql<{ createApiToken: { data?: { token: string }; message?: string } }>(
    `mutation($a: Boolean, $g: [ID!]) { createApiToken(name: "walk", capabilities: [VIEW_INVENTORY, RUN_SYNC, MANAGE_PROXMOX, MANAGE_VCD, MANAGE_VCENTER], allConnections: $a, groupIds: $g) {
      ... on MutationCreateApiTokenSuccess { data { token } } ... on ValidationError { message } } }`,
    { a: variables.allConnections, g: variables.groupIds },
    { cookie },
  );
  const token = body.data?.createApiToken.data?.token;
  if (!token) throw new Error(JSON.stringify(body));
  return { authorization: `Bearer ${token}` };
}

const callers: Record<string, Record<string, string>> = {};
let alphaUserId = "";

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
  groupIds.alpha = await createGroup("alpha-group");
  groupIds.bravo = await createGroup("bravo-group");

  // Bravo's vCenter backs a Director VM of alpha's: the link must not lead alpha across.
  const sharedVcenter = "https://shared-vc.invalid";
  const vcenterHost = normalizeHost(sharedVcenter) ?? "";
  const alphaPve = await seedSource("alpha", "PROXMOX", "alpha-pve", [guest("alpha", "101", "01")]);
  const alphaVcd = await seedSource("alpha", "VCD", "alpha-vcd", [
    guest("alpha", "urn:vcloud:vm:a1", "02", {
      backing: { vcenterId: "vc-1", moref: "vm-77", vcenterHost },
      details: { vcd: { vcenter: { vcenterHost } } },
    }),
  ]);
  const bravoVc = await seedSource(
    "bravo",
    "VCENTER",
    "bravo-vcenter",
    [guest("bravo", "vm-77", "01"), guest("bravo", "vm-78", "02")],
    sharedVcenter,
  );
  const bravoVcd = await seedSource("bravo", "VCD", "bravo-vcd", [
    guest("bravo", "urn:vcloud:vm:b1", "03"),
  ]);
  // In no group at all: seen only by those who see every connection.
  const loose = await seedSource("bravo", "PROXMOX", "bravo-ungrouped", [
    guest("bravo", "201", "04"),
  ]);
  for (const [connection, group] of [
    [alphaPve, groupIds.alpha],
    [alphaVcd, groupIds.alpha],
    [bravoVc, groupIds.bravo],
    [bravoVcd, groupIds.bravo],
  ] as const) {
    const data = await asAdmin<{ setConnectionGroups: { __typename: string } }>(SET_GROUPS, {
      c: encodeGlobalID("Connection", connection),
      g: [encodeGlobalID("ConnectionGroup", group)],
    });
    expect(data.setConnectionGroups.__typename).toBe("MutationSetConnectionGroupsSuccess");
  }

  // The link across the groups is there: an administrator follows it.
  const linked = await asAdmin<{
    virtualMachines: { edges: { node: { backingVm?: { name: string } | null } }[] };
  }>(
    `{ virtualMachines(filter: { source: [VCD] }) { edges { node { ... on VcdVm { backingVm { name } } } } } }`,
  );
  expect(linked.virtualMachines.edges.map((e) => e.node.backingVm?.name)).toContain(
    "bravo-guest-vm-77",
  );

  // Every row of bravo's, by its uuid, as the database holds it.
  const prisma = app.services.prisma;
  const bravoConnections = [bravoVc, bravoVcd, loose];
  const inBravo = { connectionId: { in: bravoConnections } };
  const vmIds = (await prisma.virtualMachine.findMany({ where: inBravo })).map((r) => r.id);
  const ofVms = { vmId: { in: vmIds } };
  for (const id of [
    ...bravoConnections,
    groupIds.bravo,
    ...vmIds,
    ...(await prisma.nic.findMany({ where: ofVms })).map((r) => r.id),
    ...(await prisma.ipAddress.findMany({ where: ofVms })).map((r) => r.id),
    ...(await prisma.disk.findMany({ where: ofVms })).map((r) => r.id),
    ...(await prisma.vmEvent.findMany({ where: ofVms })).map((r) => r.id),
    ...(await prisma.hypervisorNode.findMany({ where: inBravo })).map((r) => r.id),
    ...(await prisma.edgeGateway.findMany({ where: inBravo })).map((r) => r.id),
    ...(await prisma.syncRun.findMany({ where: inBravo })).map((r) => r.id),
  ])
    hidden.ids.add(id);

  const capabilities = [
    "VIEW_INVENTORY",
    "RUN_SYNC",
    "MANAGE_PROXMOX",
    "MANAGE_VCD",
    "MANAGE_VCENTER",
  ] as const;
  const alphaCookie = await app.signedInAs("alpha-user", { capabilities: [...capabilities] });
  const users = await asAdmin<{ users: { id: string; username: string }[] }>(
    "{ users { id username } }",
  );
  alphaUserId = users.users.find((u) => u.username === "alpha-user")?.id ?? "";
  const granted = await asAdmin<{ setUserConnectionGrants: { __typename: string } }>(
    `mutation($u: ID!, $g: [ID!]!) { setUserConnectionGrants(userId: $u, allConnections: false, groupIds: $g) { __typename } }`,
    { u: alphaUserId, g: [encodeGlobalID("ConnectionGroup", groupIds.alpha)] },
  );
  expect(granted.setUserConnectionGrants.__typename).toBe("MutationSetUserConnectionGrantsSuccess");
  callers["a user granted alpha"] = { cookie: alphaCookie };
  callers["an administrator's token limited to alpha"] = await tokenOf(admin, {
    allConnections: false,
    groupIds: [encodeGlobalID("ConnectionGroup", groupIds.alpha)],
  });
  // Managing users is seeing every group's name (to grant it), not its connections.
  const managerCookie = await app.signedInAs("alpha-manager", {
    capabilities: [...capabilities, "MANAGE_USERS"],
  });
  const manager = (
    await asAdmin<{ users: { id: string; username: string }[] }>("{ users { id username } }")
  ).users.find((u) => u.username === "alpha-manager");
  await asAdmin(
    `mutation($u: ID!, $g: [ID!]!) { setUserConnectionGrants(userId: $u, allConnections: false, groupIds: $g) { __typename } }`,
    { u: manager?.id, g: [encodeGlobalID("ConnectionGroup", groupIds.alpha)] },
  );
  callers["a user manager granted alpha"] = { cookie: managerCookie };
  callers["the alpha user's token that sees what they see"] = await tokenOf(alphaCookie, {
    allConnections: true,
    groupIds: [],
  });
}, 120_000);
afterAll(async () => app?.close());

// ——— the query generator ———
// The server refuses large documents (docs/api.md limits), so the walk asks one path at a time:
// for every object type reachable from a field without entering a type twice, one query that
// follows the path there and selects all of that type's scalar fields.

/** A literal for an argument, or undefined when the walk cannot make one up. */
function literal(type: GraphQLInputType): string | undefined {
  if (isNonNullType(type)) return literal(type.ofType);
  if (isListType(type)) {
    const item = literal(type.ofType);
    return item === undefined ? undefined : `[${item}]`;
  }
  if (isScalarType(type) && type.name === "Boolean") return "true";
  // Pages of 20 hold every row seeded here; the server prices a list by its page size.
  if (isScalarType(type) && type.name === "Int") return "20";
  if (isEnumType(type)) return type.getValues()[0]?.name;
  return undefined;
}

/** Arguments of a nested field: required ones it can make up, every optional Boolean true (includeRejected). */
function nestedArgs(args: readonly GraphQLArgument[]): string | undefined {
  const parts: string[] = [];
  for (const arg of args) {
    const isBoolean = getNamedType(arg.type).name === "Boolean";
    const value = isNonNullType(arg.type) || isBoolean ? literal(arg.type) : undefined;
    if (value === undefined && isNonNullType(arg.type)) return undefined;
    if (value !== undefined) parts.push(`${arg.name}: ${value}`);
  }
  return parts.length ? `(${parts.join(", ")})` : "";
}

const isLeaf = (type: GraphQLNamedType) => !isObjectType(type) && !isAbstractType(type);

/** The scalar fields of an object type, with the arguments the walk gives them. */
function scalarsOf(owner: GraphQLNamedType): string[] {
  if (!isObjectType(owner)) return [];
  return Object.values(owner.getFields())
    .filter((field) => isLeaf(getNamedType(field.type)) && nestedArgs(field.args) !== undefined)
    .map((field) => `${field.name}${nestedArgs(field.args)}`);
}

/**
 * One path of the walk: `build` nests the chosen scalar fields of the type it ends at inside the
 * path's selections, so a path the server finds too costly can be asked in parts.
 */
interface WalkPath {
  scalars: string[];
  build(scalars: string[]): string;
}

/** Every path from `type` on: its own scalars, and each path into a type not yet entered. */
function pathsFrom(type: GraphQLNamedType, entered: ReadonlySet<string>): WalkPath[] {
  const concrete = isAbstractType(type) ? [...schema.getPossibleTypes(type)] : [type];
  const wrap = (owner: string, body: string) =>
    isAbstractType(type) ? `{ ... on ${owner} { ${body} } }` : `{ ${body} }`;
  const paths: WalkPath[] = [];
  for (const owner of concrete) {
    if (!isObjectType(owner) || entered.has(owner.name)) continue;
    const inside = new Set(entered).add(owner.name);
    paths.push({
      scalars: scalarsOf(owner),
      build: (scalars) => wrap(owner.name, `__typename ${scalars.join(" ")}`),
    });
    for (const field of Object.values(owner.getFields())) {
      const args = nestedArgs(field.args);
      const named = getNamedType(field.type);
      if (isLeaf(named) || args === undefined) continue;
      for (const inner of pathsFrom(named, inside))
        paths.push({
          scalars: inner.scalars,
          build: (scalars) => wrap(owner.name, `${field.name}${args} ${inner.build(scalars)}`),
        });
    }
  }
  return paths;
}

/** One level of `type`: its scalars; for an interface, of each possible type in its own query. */
function oneLevelOf(type: GraphQLNamedType): WalkPath[] {
  if (!isAbstractType(type))
    return [{ scalars: scalarsOf(type), build: (s) => `{ __typename ${s.join(" ")} }` }];
  return schema.getPossibleTypes(type).map((owner) => ({
    scalars: scalarsOf(owner),
    build: (s) => `{ __typename ... on ${owner.name} { __typename ${s.join(" ")} } }`,
  }));
}

/** The argument lists a top-level field is called with: none, and each probe of an optional one. */
function callsOf(
  field: GraphQLField<unknown, unknown>,
  probeIds: string[],
): { args: string; isProbe: boolean }[] {
  const base: string[] = [];
  const variants: { parts: string[]; isProbe: boolean }[] = [];
  for (const arg of field.args) {
    const named = getNamedType(arg.type);
    if (named.name === "ID") {
      // The other group's ids, one at a time (a list gets them all at once).
      const isList = isListType(isNonNullType(arg.type) ? arg.type.ofType : arg.type);
      const values = isList
        ? [`[${probeIds.map((id) => JSON.stringify(id)).join(", ")}]`]
        : probeIds.map((id) => JSON.stringify(id));
      for (const value of values)
        variants.push({ parts: [`${arg.name}: ${value}`], isProbe: true });
      if (isNonNullType(arg.type))
        return variants.map((v) => ({ args: `(${v.parts.join(", ")})`, isProbe: true }));
      continue;
    }
    if (isEnumType(named) && !isNonNullType(arg.type)) {
      for (const value of named.getValues())
        variants.push({ parts: [`${arg.name}: ${value.name}`], isProbe: false });
      continue;
    }
    if (isInputObjectType(named) && !isNonNullType(arg.type)) {
      // One call per Boolean of the input set true (includeRemoved: tombstones too), when that is
      // all the input needs (not AddressRulesInput, whose fields are all required).
      const fields = Object.values(named.getFields());
      for (const inner of fields)
        if (
          getNamedType(inner.type).name === "Boolean" &&
          fields.every((other) => other === inner || !isNonNullType(other.type))
        )
          variants.push({ parts: [`${arg.name}: { ${inner.name}: true }`], isProbe: false });
      continue;
    }
    const value = isNonNullType(arg.type) || arg.name === "first" ? literal(arg.type) : undefined;
    if (value !== undefined) base.push(`${arg.name}: ${value}`);
    else if (isNonNullType(arg.type)) return [];
  }
  const listed = (parts: string[]) => (parts.length ? `(${parts.join(", ")})` : "");
  return [
    { args: listed(base), isProbe: false },
    ...variants.map((v) => ({ args: listed([...base, ...v.parts]), isProbe: v.isProbe })),
  ];
}

/** A response as text, with every global id also spelled out as "Type:uuid". */
function textOf(body: unknown): string {
  const decoded: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === "string") {
      const plain = Buffer.from(value, "base64").toString("utf8");
      if (/^[A-Za-z]+:[0-9a-f-]{36}$/.test(plain)) decoded.push(plain);
    } else if (value && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit(body);
  return `${JSON.stringify(body)}\n${decoded.join("\n")}`.toLowerCase();
}

/** What of the other group the walk found in `text`, after taking out what `allowed` may show. */
function leaksIn(text: string, allowed: readonly string[] = []): string[] {
  const rest = allowed.reduce((t, shown) => t.replaceAll(shown.toLowerCase(), ""), text);
  return [...hidden.ids, ...hidden.markers].filter((secret) => rest.includes(secret.toLowerCase()));
}

/** Every global id of the other group's rows that a Node type names. */
async function bravoGlobalIds(): Promise<string[]> {
  const prisma = app.services.prisma;
  const inBravo = { id: { in: [...hidden.ids] } };
  const variant = { PROXMOX: "ProxmoxGuest", VCD: "VcdVm", VCENTER: "VcenterVm" } as const;
  const ids = async (rows: Promise<{ id: string }[]>, type: string) =>
    (await rows).map((row) => encodeGlobalID(type, row.id));
  return [
    ...(await ids(prisma.connection.findMany({ where: inBravo }), "Connection")),
    encodeGlobalID("ConnectionGroup", groupIds.bravo),
    ...(await prisma.virtualMachine.findMany({ where: inBravo })).map((r) =>
      encodeGlobalID(variant[r.source], r.id),
    ),
    ...(await ids(prisma.hypervisorNode.findMany({ where: inBravo }), "HypervisorNode")),
    ...(await ids(prisma.edgeGateway.findMany({ where: inBravo }), "EdgeGateway")),
    ...(await ids(prisma.syncRun.findMany({ where: inBravo }), "SyncRun")),
  ];
}

/**
 * Answers that show nothing: a capability the caller lacks, or an id of another type where a
 * connection's is expected (the walk tries every id of the other group in every id argument).
 */
// NOT_FOUND: the other group's id given to a field that acts on it (previewAddressRules).
const REFUSALS = ["FORBIDDEN", "BAD_USER_INPUT", "NOT_FOUND"];

interface Walk {
  queries: number;
  /** Paths the server refuses as too costly even for one field. */
  tooDeep: number;
  text: string;
  leaks: string[];
  errors: string[];
}

/**
 * Walks every Query field as `headers`. A call with one of the other group's ids selects one level
 * (a row it must not find is null at every depth); the others follow every path.
 */
async function walk(
  headers: Record<string, string>,
  probeIds: string[],
  allowed: readonly string[] = [],
): Promise<Walk> {
  const result: Walk = { queries: 0, tooDeep: 0, text: "", leaks: [], errors: [] };
  const queryType = schema.getQueryType();
  if (!queryType) throw new Error("no Query type");
  /** Asks one path; one the server finds too costly is asked again in two halves. */
  const ask = async (head: string, path: WalkPath, scalars: string[]): Promise<void> => {
    const query = `${head}${path.build(scalars)} }`;
    const body = await gql(query, {}, headers);
    result.queries++;
    const tooCostly = body.errors?.some((e) => e.extensions?.code === "QUERY_TOO_COMPLEX");
    if (tooCostly && scalars.length > 1) {
      const half = Math.ceil(scalars.length / 2);
      await ask(head, path, scalars.slice(0, half));
      await ask(head, path, scalars.slice(half));
      return;
    }
    // Deeper than the server answers (docs/api.md limits): no client reaches it either.
    if (tooCostly) {
      result.tooDeep++;
      return;
    }
    const text = textOf(body);
    result.text += text;
    for (const leak of leaksIn(text, allowed))
      result.leaks.push(`${query.slice(0, 200)} shows ${leak}`);
    // Refusals (a capability the caller lacks) show nothing; any other error is a finding.
    for (const error of body.errors ?? [])
      if (!REFUSALS.includes(String(error.extensions?.code)))
        result.errors.push(`${query.slice(0, 200)}: ${error.message}`);
  };
  for (const field of Object.values(queryType.getFields())) {
    const named = getNamedType(field.type);
    for (const { args, isProbe } of callsOf(field, probeIds)) {
      for (const path of isProbe ? oneLevelOf(named) : pathsFrom(named, new Set()))
        await ask(`{ ${field.name}${args} `, path, path.scalars);
    }
  }
  return result;
}

describe("a viewer granted one connection group of two", () => {
  it.each([
    "a user granted alpha",
    "an administrator's token limited to alpha",
    "the alpha user's token that sees what they see",
    "a user manager granted alpha",
  ])(
    "%s: no field reachable from Query, nor node(id)/nodes(ids) with the other group's ids, shows anything of it",
    async (caller) => {
      const headers = callers[caller] ?? {};
      const probes = await bravoGlobalIds();
      expect(probes.length).toBeGreaterThan(10);
      // A user manager sees the other group itself (its name, id and description), nothing in it.
      const allowed = caller.includes("manager")
        ? ["bravo-group", encodeGlobalID("ConnectionGroup", groupIds.bravo), groupIds.bravo]
        : [];
      const result = await walk(headers, probes, allowed);
      expect(result.leaks).toEqual([]);
      expect(result.errors.slice(0, 20)).toEqual([]);
      // It walked the granted group's rows, through every kind of row that could leak.
      for (const name of shown) expect(result.text, name).toContain(name.toLowerCase());
      expect(result.queries).toBeGreaterThan(50);
    },
    300_000,
  );

  it("the administrator's walk shows the other group: the walk does find what it looks for", async () => {
    const result = await walk({ cookie: admin }, []);
    expect(result.errors.slice(0, 10)).toEqual([]);
    expect(result.leaks.length).toBeGreaterThan(0);
    for (const id of [...hidden.ids].slice(0, 5)) expect(result.text).toContain(id);
  }, 300_000);
});
