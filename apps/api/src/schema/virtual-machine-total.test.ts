// The unified list's total is counted once and kept while the inventory stays as it was
// (docs/behaviour.md §11.2): it must still be exact after every write that changes it, and a total
// counted for one viewer must never reach a viewer who sees other connections (§7.9).
import { runSync } from "@hyperlens/sync";
import { decodeGlobalID, encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection, syncInto } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";
import { listVmPage } from "../testing/vm-list-page.ts";

let app: TestApp;
let admin: string;

const list = (
  cookie: string,
  variables: { filter?: Record<string, unknown>; first?: number; after?: string | null } = {},
) => listVmPage(app, cookie, { first: 100, ...variables });

const total = async (cookie: string, filter?: Record<string, unknown>) =>
  (await list(cookie, { filter })).totalCount;

const guests = (prefix: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, i) =>
    neutralVm(`${prefix}${from + i}`, { name: `${prefix}-${String(from + i).padStart(3, "0")}` }),
  );

async function asAdmin<T>(query: string, variables: Record<string, unknown>) {
  const res = await app.graphql<T>(query, variables, { cookie: admin });
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data as T;
}

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
}, 60_000);
afterAll(async () => app?.close());

describe("the total of the unified list", () => {
  it("follows every sync write: guests added, removed, renamed", async () => {
    const connection = await seedConnection(app.services, "PROXMOX", "totals", guests("t", 10));
    const sync = (vms: ReturnType<typeof guests>) =>
      syncInto(app.services, connection.id, "PROXMOX", vms);
    const byName = { search: "t-0" };
    expect(await total(admin)).toBe(10);
    expect(await total(admin, byName)).toBe(10);

    await sync(guests("t", 12));
    expect(await total(admin)).toBe(12);

    await sync(guests("t", 11));
    expect(await total(admin)).toBe(11);
    expect(await total(admin, { includeRemoved: true })).toBe(12);

    // A rename changes which guests a name filter matches, not how many guests there are.
    await sync([...guests("t", 10), neutralVm("t10", { name: "renamed" })]);
    expect(await total(admin, byName)).toBe(10);
    expect(await total(admin, { search: "renamed" })).toBe(1);
  });

  it("follows a sync that only reconfirms guests, which writes no feed event", async () => {
    const vms = guests("c", 3);
    const connection = await seedConnection(app.services, "PROXMOX", "totals-confirm", vms);
    const confirmed = { confirmation: ["CONFIRMED"], search: "c-00" };
    expect(await total(admin, confirmed)).toBe(3);
    await runSync({
      prisma: app.services.prisma,
      connectionId: connection.id,
      source: "PROXMOX",
      trigger: "MANUAL",
      read: async () => ({ lists: [{ key: "vms", status: "failed", reason: "timed out" }] }),
    });
    expect(await total(admin, confirmed)).toBe(0);
    // The list reads again: the guests are confirmed again, and nothing else changed.
    await syncInto(app.services, connection.id, "PROXMOX", vms);
    expect(await total(admin, confirmed)).toBe(3);
  });

  it("drops the guests of a deleted connection", async () => {
    const before = await total(admin);
    const gone = await seedConnection(app.services, "VCENTER", "totals-gone", guests("g", 3));
    expect(await total(admin)).toBe(before + 3);
    await asAdmin("mutation($id: ID!) { deleteConnection(id: $id) }", {
      id: encodeGlobalID("Connection", gone.id),
    });
    expect(await total(admin)).toBe(before);
  });

  it("counts for each viewer only what they see, whoever counted first (§7.9)", async () => {
    const shown = await seedConnection(app.services, "VCD", "totals-shown", guests("s", 2));
    await seedConnection(app.services, "VCD", "totals-hidden", guests("h", 5));
    const group = await asAdmin<{ createConnectionGroup: { data: { id: string } } }>(
      `mutation { createConnectionGroup(name: "totals-group") {
        ... on MutationCreateConnectionGroupSuccess { data { id } } } }`,
      {},
    );
    const groupId = group.createConnectionGroup.data.id;
    await asAdmin(
      "mutation($c: ID!, $g: [ID!]!) { setConnectionGroups(connectionId: $c, groupIds: $g) { __typename } }",
      { c: encodeGlobalID("Connection", shown.id), g: [groupId] },
    );
    const granted = await app.signedInAs("totals-viewer", { capabilities: ["VIEW_INVENTORY"] });
    const { users } = await asAdmin<{ users: { id: string; username: string }[] }>(
      "{ users { id username } }",
      {},
    );
    await asAdmin(
      `mutation($u: ID!, $g: [ID!]!) { setUserConnectionGrants(userId: $u, allConnections: false, groupIds: $g) { __typename } }`,
      { u: users.find((u) => u.username === "totals-viewer")?.id, g: [groupId] },
    );
    const filter = { source: ["VCD"] };
    // The administrator counts first, then the viewer asks the same filter, then the other way.
    expect(await total(admin, filter)).toBe(7);
    expect(await total(granted, filter)).toBe(2);
    expect(await total(granted, { source: ["VCD"], search: "-00" })).toBe(2);
    expect(await total(admin, { source: ["VCD"], search: "-00" })).toBe(7);
  });

  it("pages through guests of one name without a duplicate or a gap", async () => {
    const twins = Array.from({ length: 7 }, (_, i) => neutralVm(`tw${i}`, { name: "twin" }));
    await seedConnection(app.services, "VCENTER", "totals-twins", twins);
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await list(admin, { filter: { search: "twin" }, first: 3, after });
      expect(page.totalCount).toBe(7);
      seen.push(...page.edges.map((e) => decodeGlobalID(e.node.id).id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });
});
