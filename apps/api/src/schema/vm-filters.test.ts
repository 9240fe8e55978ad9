// docs/behaviour.md §9.43: every filter of the unified list narrows it to the guests that hold its
// value, and virtualMachineFacets offers each filter's values from the connections the viewer sees.
import { runSync } from "@hyperlens/sync";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const LIST = `query($filter: VirtualMachineFilter) {
  virtualMachines(filter: $filter, first: 100) {
    totalCount edges { node { name removedAt removedReason } }
  }
}`;
const FACETS = `{ virtualMachineFacets {
  nodeNames clusterNames datacenterNames hostNames orgNames vdcNames guestOses tags
} }`;

let app: TestApp;
let admin: string;
let granted: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.signedInAs("admin", { isAdmin: true });
  granted = await app.signedInAs("granted", { capabilities: ["VIEW_INVENTORY"] });
  const pve = await seedConnection(app.services, "PROXMOX", "pve", [
    neutralVm("101", {
      name: "p-web",
      tags: ["web"],
      guestOs: "Debian 12",
      location: { nodeName: "pve1", clusterName: "lab" },
    }),
    neutralVm("102", {
      name: "p-ct",
      kind: "CONTAINER",
      state: "STOPPED",
      location: { nodeName: "pve2", clusterName: "lab" },
    }),
    neutralVm("900", { name: "p-template", isTemplate: true, location: { nodeName: "pve1" } }),
  ]);
  const vc = await seedConnection(app.services, "VCENTER", "vc", [
    neutralVm("vm-1", {
      name: "v-db",
      tags: ["db"],
      guestOs: "Red Hat Enterprise Linux 9 (64-bit)",
      location: { datacenterName: "DC1", clusterName: "gold", hostName: "esx01" },
    }),
  ]);
  const kept = neutralVm("urn:vcloud:vm:2", {
    name: "d-keep",
    location: { orgName: "Acme", vdcName: "vdc1" },
  });
  const vcd = await seedConnection(app.services, "VCD", "vcd", [
    neutralVm("urn:vcloud:vm:1", {
      name: "d-app",
      location: { orgName: "Gone", vdcName: "vdc-gone" },
    }),
    kept,
  ]);
  Object.assign(ids, { pve: pve.id, vc: vc.id, vcd: vcd.id });
  // A second sync: v-db's list fails (kept as last known), d-app is gone (a tombstone).
  await runSync({
    prisma: app.services.prisma,
    connectionId: vc.id,
    source: "VCENTER",
    trigger: "MANUAL",
    read: async () => ({ lists: [{ key: "vms", status: "failed", reason: "HTTP 503" }] }),
  });
  await runSync({
    prisma: app.services.prisma,
    connectionId: vcd.id,
    source: "VCD",
    trigger: "MANUAL",
    read: async () => ({ lists: [{ key: "vms", status: "ok", vms: [kept] }] }),
  });
  // "granted" sees the Proxmox connection only (docs/behaviour.md §7.9).
  const created = await asAdmin<{ createConnectionGroup: { data: { id: string } } }>(
    `mutation { createConnectionGroup(name: "pve only", description: "") {
      ... on MutationCreateConnectionGroupSuccess { data { id } } } }`,
  );
  const groupId = created.createConnectionGroup.data.id;
  await asAdmin(
    "mutation($c: ID!, $g: [ID!]!) { setConnectionGroups(connectionId: $c, groupIds: $g) { __typename } }",
    { c: encodeGlobalID("Connection", pve.id), g: [groupId] },
  );
  const { users } = await asAdmin<{ users: { id: string; username: string }[] }>(
    "{ users { id username } }",
  );
  await asAdmin(
    "mutation($u: ID!, $g: [ID!]!) { setUserConnectionGrants(userId: $u, allConnections: false, groupIds: $g) { __typename } }",
    { u: users.find((u) => u.username === "granted")?.id, g: [groupId] },
  );
});
afterAll(async () => app?.close());

async function asAdmin<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await app.graphql<T>(query, variables, { cookie: admin });
  if (!res.body.data) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

type Row = { name: string; removedAt: string | null; removedReason: string | null };

async function rows(filter: Record<string, unknown>, cookie = admin): Promise<Row[]> {
  const res = await app.graphql<{
    virtualMachines: { totalCount: number; edges: { node: Row }[] };
  }>(LIST, { filter }, { cookie });
  if (!res.body.data) throw new Error(JSON.stringify(res.body));
  const page = res.body.data.virtualMachines;
  expect(page.totalCount).toBe(page.edges.length);
  return page.edges.map((edge) => edge.node);
}
const names = async (filter: Record<string, unknown>) =>
  (await rows(filter)).map((row) => row.name).sort();

describe("each filter narrows the list to what holds its value", () => {
  it("source, several", async () => {
    expect(await names({ source: ["VCENTER", "PROXMOX"] })).toEqual([
      "p-ct",
      "p-template",
      "p-web",
      "v-db",
    ]);
  });
  it("connection, several", async () => {
    const connectionId = [
      encodeGlobalID("Connection", ids.vc ?? ""),
      encodeGlobalID("Connection", ids.pve ?? ""),
    ];
    expect(await names({ connectionId, isTemplate: false })).toEqual(["p-ct", "p-web", "v-db"]);
  });
  it("state", async () => {
    expect(await names({ state: ["STOPPED"] })).toEqual(["p-ct"]);
  });
  it("kind and templates", async () => {
    expect(await names({ kind: ["CONTAINER"] })).toEqual(["p-ct"]);
    expect(await names({ isTemplate: true })).toEqual(["p-template"]);
    expect(await names({ kind: ["VM"], isTemplate: false })).toEqual(["d-keep", "p-web", "v-db"]);
  });
  it.each([
    ["nodeName", "PVE1", ["p-template", "p-web"]],
    ["clusterName", "lab", ["p-ct", "p-web"]],
    ["datacenterName", "dc1", ["v-db"]],
    ["hostName", "ESX01", ["v-db"]],
    ["guestOs", "red hat", ["v-db"]],
  ])("%s %s", async (field, value, expected) => {
    expect(await names({ [field]: value })).toEqual(expected);
  });
  it("tags, any of them", async () => {
    expect(await names({ tags: ["web", "db"] })).toEqual(["p-web", "v-db"]);
  });
  it("confirmation: not seen in the last sync", async () => {
    expect(await names({ confirmation: ["LIST_FAILED", "NOT_CONFIRMED", "NODE_OFFLINE"] })).toEqual(
      ["v-db"],
    );
    expect(await names({ confirmation: ["CONFIRMED"], source: ["VCENTER"] })).toEqual([]);
  });
  it("removed guests come back with when and why, and only with includeRemoved", async () => {
    expect(await names({ orgName: "gone" })).toEqual([]);
    const [removed, ...rest] = await rows({ includeRemoved: true, vdcName: "VDC-GONE" });
    expect(rest).toEqual([]);
    expect(removed?.name).toBe("d-app");
    expect(removed?.removedAt).toEqual(expect.any(String));
    expect(removed?.removedReason).toEqual(expect.any(String));
  });
});

describe("virtualMachineFacets", () => {
  it("offers each filter's values among live guests, sorted", async () => {
    const res = await app.graphql<{ virtualMachineFacets: Record<string, string[]> }>(
      FACETS,
      {},
      { cookie: admin },
    );
    expect(res.body.data?.virtualMachineFacets).toEqual({
      nodeNames: ["pve1", "pve2"],
      clusterNames: ["gold", "lab"],
      datacenterNames: ["DC1"],
      hostNames: ["esx01"],
      // The removed Director guest's organization and VDC are not offered.
      orgNames: ["Acme"],
      vdcNames: ["vdc1"],
      guestOses: ["Debian 12", "Red Hat Enterprise Linux 9 (64-bit)"],
      tags: ["db", "web"],
    });
  });

  it("offers nothing from a connection the viewer is not granted (docs/behaviour.md §7.9)", async () => {
    const res = await app.graphql<{ virtualMachineFacets: Record<string, string[]> }>(
      FACETS,
      {},
      { cookie: granted },
    );
    expect(res.body.data?.virtualMachineFacets).toEqual({
      nodeNames: ["pve1", "pve2"],
      clusterNames: ["lab"],
      datacenterNames: [],
      hostNames: [],
      orgNames: [],
      vdcNames: [],
      guestOses: ["Debian 12"],
      tags: ["web"],
    });
  });
});
