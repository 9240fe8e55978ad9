// A list page's guests are found once per filter, order, position and visibility and served again
// while the inventory is unchanged (docs/behaviour.md §11.5). Whether a page was found anew or
// served again, it must hold exactly what the general path — one Prisma query over the same
// filter, order and visibility — lists there, for every viewer (§7.9), and follow every write.
import { decodeGlobalID, encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection, syncInto } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";
import { listVmPage, type VmListPage } from "../testing/vm-list-page.ts";
import { buildVmWhere } from "./virtual-machine-filter.ts";
import { buildVmOrder } from "./virtual-machine-order.ts";

type Filter = Parameters<typeof buildVmWhere>[0];
type Order = Parameters<typeof buildVmOrder>[0];

let app: TestApp;
let admin: string;
let viewer: string;
let viewerUserId: string;
let groupId: string;
let shown: { id: string };
let hidden: { id: string };

async function call<T>(cookie: string, query: string, variables: Record<string, unknown>) {
  const res = await app.graphql<T>(query, variables, { cookie });
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data as T;
}

/** Every guest of the list, page by page through the API: each page asked for twice. */
async function pagedIds(cookie: string, filter: Filter, orderBy: Order): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (;;) {
    const variables = { filter, orderBy, first: 3, after };
    const page: VmListPage = await listVmPage(app, cookie, variables);
    // The same page again, with nothing written in between: served from what was kept.
    expect(await listVmPage(app, cookie, variables)).toEqual(page);
    for (const edge of page.edges) ids.push(decodeGlobalID(edge.node.id).id);
    if (!page.pageInfo.hasNextPage) return ids;
    after = page.pageInfo.endCursor;
  }
}

/** The general path: one Prisma query over the same filter, order and visible connections. */
async function expectedIds(connectionIds: string[] | null, filter: Filter, orderBy: Order) {
  const visible = connectionIds ? { connectionId: { in: connectionIds } } : {};
  const rows = await app.services.prisma.virtualMachine.findMany({
    where: { AND: [buildVmWhere(filter), visible] },
    orderBy: buildVmOrder(orderBy),
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

const FILTERS: Filter[] = [
  {},
  { search: "twin" },
  { state: ["STOPPED"] },
  { tags: ["blue"] },
  { includeRemoved: true },
];
const ORDERS: Order[] = [
  undefined,
  [{ field: "NAME", direction: "DESC" }],
  [{ field: "MEMORY", direction: "DESC" }],
  [{ field: "CPU", direction: "ASC" }],
  [{ field: "CONNECTION", direction: "ASC" }],
];

/** Every filter and order, for the administrator (everything) and the viewer (`shown` only). */
async function expectEveryListAsGeneralPath() {
  for (const filter of FILTERS) {
    for (const orderBy of ORDERS) {
      const label = JSON.stringify({ filter, orderBy });
      expect(await pagedIds(admin, filter, orderBy), label).toEqual(
        await expectedIds(null, filter, orderBy),
      );
      expect(await pagedIds(viewer, filter, orderBy), label).toEqual(
        await expectedIds([shown.id], filter, orderBy),
      );
    }
  }
}

const guest = (id: string, name: string, i: number) =>
  neutralVm(id, {
    name,
    state: i % 3 === 0 ? "STOPPED" : "RUNNING",
    // Equal values and missing ones, so ties fall to the name and then the id.
    cpuCount: i % 4 === 0 ? undefined : 1 + (i % 2),
    memoryBytes: i % 5 === 0 ? undefined : (1 + (i % 3)) * 1024 ** 3,
    tags: i % 2 === 0 ? ["blue"] : [],
  });

const shownGuests = Array.from({ length: 7 }, (_, i) =>
  guest(`s${i}`, i < 4 ? "twin" : `shown-${i}`, i),
);
const hiddenGuests = Array.from({ length: 6 }, (_, i) =>
  guest(`h${i}`, i < 3 ? "twin" : `hidden-${i}`, i),
);

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
  shown = await seedConnection(app.services, "PROXMOX", "memo-shown", shownGuests);
  hidden = await seedConnection(app.services, "VCENTER", "memo-hidden", hiddenGuests);
  const group = await call<{ createConnectionGroup: { data: { id: string } } }>(
    admin,
    `mutation { createConnectionGroup(name: "memo-group") {
      ... on MutationCreateConnectionGroupSuccess { data { id } } } }`,
    {},
  );
  groupId = group.createConnectionGroup.data.id;
  await call(
    admin,
    "mutation($c: ID!, $g: [ID!]!) { setConnectionGroups(connectionId: $c, groupIds: $g) { __typename } }",
    { c: encodeGlobalID("Connection", shown.id), g: [groupId] },
  );
  viewer = await app.signedInAs("memo-viewer", { capabilities: ["VIEW_INVENTORY"] });
  const { users } = await call<{ users: { id: string; username: string }[] }>(
    admin,
    "{ users { id username } }",
    {},
  );
  viewerUserId = users.find((u) => u.username === "memo-viewer")?.id ?? "";
  await grantViewer([groupId]);
}, 60_000);
afterAll(async () => app?.close());

const grantViewer = (groupIds: string[]) =>
  call(
    admin,
    `mutation($u: ID!, $g: [ID!]!) { setUserConnectionGrants(userId: $u, allConnections: false, groupIds: $g) { __typename } }`,
    { u: viewerUserId, g: groupIds },
  );

describe("a list page served again (docs/behaviour.md §11.5)", () => {
  it("lists what the general path lists, for every filter, order and viewer", async () => {
    await expectEveryListAsGeneralPath();
  }, 120_000);

  it("follows sync writes: a guest renamed to the front, one removed, one added", async () => {
    const first = { first: 3 };
    const names = async () => (await listVmPage(app, admin, first)).edges.map((e) => e.node.name);
    expect(await names()).toEqual(["hidden-3", "hidden-4", "hidden-5"]);
    const renamed = shownGuests.map((vm) =>
      vm.externalId === "s5" ? { ...vm, name: "aaa-renamed" } : vm,
    );
    await syncInto(app.services, shown.id, "PROXMOX", renamed);
    expect(await names()).toEqual(["aaa-renamed", "hidden-3", "hidden-4"]);
    await syncInto(app.services, hidden.id, "VCENTER", [
      ...hiddenGuests.filter((vm) => vm.externalId !== "h3"),
      guest("h9", "hidden-9", 9),
    ]);
    expect(await names()).toEqual(["aaa-renamed", "hidden-4", "hidden-5"]);
    await expectEveryListAsGeneralPath();
  }, 120_000);

  it("sorts by connection after a connection is renamed, which no sync writes", async () => {
    const byConnection = { first: 3, orderBy: [{ field: "CONNECTION", direction: "ASC" }] };
    const firstId = async () =>
      decodeGlobalID((await listVmPage(app, admin, byConnection)).edges[0]?.node.id ?? "").id;
    const ofShown = new Set(await expectedIds([shown.id], {}, undefined));
    expect(ofShown.has(await firstId())).toBe(false);
    await app.services.prisma.connection.update({
      where: { id: shown.id },
      data: { name: "aaa-memo-shown" },
    });
    expect(ofShown.has(await firstId())).toBe(true);
  });

  it("lists for a viewer only what they see today, after a grant is taken away (§7.9)", async () => {
    expect(await pagedIds(viewer, {}, undefined)).toEqual(
      await expectedIds([shown.id], {}, undefined),
    );
    await grantViewer([]);
    expect(await pagedIds(viewer, {}, undefined)).toEqual([]);
    await grantViewer([groupId]);
    expect(await pagedIds(viewer, {}, undefined)).toEqual(
      await expectedIds([shown.id], {}, undefined),
    );
  });

  it("drops the guests of a deleted connection", async () => {
    await call(admin, "mutation($id: ID!) { deleteConnection(id: $id) }", {
      id: encodeGlobalID("Connection", hidden.id),
    });
    expect(await pagedIds(admin, {}, undefined)).toEqual(await expectedIds(null, {}, undefined));
    expect(await pagedIds(admin, {}, undefined)).toEqual(
      await expectedIds([shown.id], {}, undefined),
    );
  });
});
