// The unified list in groups (docs/behaviour.md §9.45): each group's count is the number of guests
// the list shows under it — through the filter, within what the viewer sees, a guest with several
// tags in each tag's group, the guests with no value in a group of their own.
import { decodeGlobalID, encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";
import { GROUP_BY, type GroupBy } from "./virtual-machine-group-key.ts";

const GROUPS = `query($by: VirtualMachineGroupBy!, $filter: VirtualMachineFilter) {
  virtualMachineGroups(by: $by, filter: $filter) { key count } }`;
const LIST = `query($filter: VirtualMachineFilter) {
  virtualMachines(filter: $filter, first: 100) { totalCount edges { node { name } } } }`;

interface Group {
  key: string | null;
  count: number;
}

let app: TestApp;
let admin: string;
let granted: string;

async function ask<T>(cookie: string, query: string, variables: Record<string, unknown>) {
  const res = await app.graphql<T>(query, variables, { cookie });
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data as T;
}

const groups = async (cookie: string, by: GroupBy, filter?: Record<string, unknown>) =>
  (await ask<{ virtualMachineGroups: Group[] }>(cookie, GROUPS, { by, filter }))
    .virtualMachineGroups;

const namesIn = async (cookie: string, filter: Record<string, unknown>) => {
  const data = await ask<{
    virtualMachines: { totalCount: number; edges: { node: { name: string } }[] };
  }>(cookie, LIST, { filter });
  return data.virtualMachines.edges.map((e) => e.node.name).sort();
};

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
  const pve = await seedConnection(app.services, "PROXMOX", "group-pve", [
    neutralVm("101", {
      name: "a1",
      tags: ["web", "prod"],
      location: { nodeName: "pve1", clusterName: "c1" },
    }),
    neutralVm("102", {
      name: "a2",
      state: "STOPPED",
      tags: ["web"],
      // A node and a host: grouped under the node only.
      location: { nodeName: "pve2", clusterName: "c1", hostName: "esx9" },
    }),
    neutralVm("103", { name: "a3", location: { nodeName: "pve10", clusterName: "c1" } }),
  ]);
  await seedConnection(app.services, "VCENTER", "group-vc", [
    neutralVm("vm-1", {
      name: "b1",
      tags: ["prod"],
      location: { hostName: "esx1", clusterName: "c2" },
    }),
    neutralVm("vm-2", { name: "b2", location: { hostName: "esx1" } }),
  ]);
  const vcd = await seedConnection(app.services, "VCD", "group-vcd", [
    neutralVm("urn:vcloud:vm:1", {
      name: "c1",
      state: "STOPPED",
      tags: ["web"],
      location: { orgName: "o1", vdcName: "v1", hostName: "esx9" },
    }),
    neutralVm("urn:vcloud:vm:2", { name: "c2", location: { orgName: "o1", vdcName: "v2" } }),
  ]);

  // A user granted the Proxmox and the Director connection, not the vCenter.
  const created = await ask<{ createConnectionGroup: { data: { id: string } } }>(
    admin,
    `mutation { createConnectionGroup(name: "grouping") {
      ... on MutationCreateConnectionGroupSuccess { data { id } } } }`,
    {},
  );
  const groupId = created.createConnectionGroup.data.id;
  for (const connection of [pve, vcd])
    await ask(
      admin,
      `mutation($c: ID!, $g: [ID!]!) { setConnectionGroups(connectionId: $c, groupIds: $g) { __typename } }`,
      { c: encodeGlobalID("Connection", connection.id), g: [groupId] },
    );
  granted = await app.signedInAs("granted", { capabilities: ["VIEW_INVENTORY"] });
  const users = await ask<{ users: { id: string; username: string }[] }>(
    admin,
    "{ users { id username } }",
    {},
  );
  const userId = users.users.find((u) => u.username === "granted")?.id ?? "";
  await ask(
    admin,
    `mutation($u: ID!, $g: [ID!]!) { setUserConnectionGrants(userId: $u, allConnections: false, groupIds: $g) { __typename } }`,
    { u: userId, g: [encodeGlobalID("ConnectionGroup", decodeGlobalID(groupId).id)] },
  );
}, 60_000);
afterAll(async () => app?.close());

describe("virtualMachineGroups (docs/behaviour.md §9.45)", () => {
  it("counts each group, in key order with numbers compared as numbers, no value last", async () => {
    expect(await groups(admin, "SOURCE")).toEqual([
      { key: "PROXMOX", count: 3 },
      { key: "VCD", count: 2 },
      { key: "VCENTER", count: 2 },
    ]);
    expect(await groups(admin, "CLUSTER")).toEqual([
      { key: "c1", count: 3 },
      { key: "c2", count: 1 },
      { key: null, count: 3 },
    ]);
    // The Proxmox node, else the ESXi host.
    expect(await groups(admin, "NODE")).toEqual([
      { key: "esx1", count: 2 },
      { key: "esx9", count: 1 },
      { key: "pve1", count: 1 },
      { key: "pve2", count: 1 },
      { key: "pve10", count: 1 },
      { key: null, count: 1 },
    ]);
    expect(await groups(admin, "ORG")).toEqual([
      { key: "o1", count: 2 },
      { key: null, count: 5 },
    ]);
    expect(await groups(admin, "VDC")).toEqual([
      { key: "v1", count: 1 },
      { key: "v2", count: 1 },
      { key: null, count: 5 },
    ]);
  });

  it("puts a guest with several tags in each tag's group, and untagged guests in their own", async () => {
    expect(await groups(admin, "TAG")).toEqual([
      { key: "prod", count: 2 },
      { key: "web", count: 3 },
      { key: null, count: 3 },
    ]);
    expect(await namesIn(admin, { group: { by: "TAG", key: "web" } })).toEqual(["a1", "a2", "c1"]);
    expect(await namesIn(admin, { group: { by: "TAG", key: null } })).toEqual(["a3", "b2", "c2"]);
  });

  it("counts through the list's filter", async () => {
    expect(await groups(admin, "TAG", { state: ["RUNNING"] })).toEqual([
      { key: "prod", count: 2 },
      { key: "web", count: 1 },
      { key: null, count: 3 },
    ]);
    expect(await groups(admin, "SOURCE", { search: "b" })).toEqual([{ key: "VCENTER", count: 2 }]);
  });

  it("counts only the guests the viewer sees", async () => {
    expect(await groups(granted, "SOURCE")).toEqual([
      { key: "PROXMOX", count: 3 },
      { key: "VCD", count: 2 },
    ]);
    expect((await groups(granted, "NODE")).map((g) => g.key)).not.toContain("esx1");
    expect(await namesIn(granted, { group: { by: "NODE", key: "esx1" } })).toEqual([]);
  });

  it("lists under every group exactly as many guests as its count", async () => {
    for (const by of GROUP_BY) {
      for (const group of await groups(admin, by, { state: ["RUNNING"] })) {
        const names = await namesIn(admin, { state: ["RUNNING"], group: { by, key: group.key } });
        expect(names, `${by} ${group.key}`).toHaveLength(group.count);
      }
    }
    // A guest with a node is not listed again under a host it also names.
    expect(await namesIn(admin, { group: { by: "NODE", key: "esx9" } })).toEqual(["c1"]);
  });

  it("refuses a source group that is not a source, naming the field", async () => {
    const res = await app.graphql(
      LIST,
      { filter: { group: { by: "SOURCE", key: "XEN" } } },
      {
        cookie: admin,
      },
    );
    expect(JSON.stringify(res.body.errors)).toContain("Expected a source");
    expect(JSON.stringify(res.body.errors)).toContain("filter.group.key");
  });
});
