// "What changed since …" (docs/behaviour.md §9.51): added, removed and changed guests between two
// instants, from the guests' history, paged, of the connections the viewer sees only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection, syncInto } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

let app: TestApp;
let admin: string;
let viewer: string;
let beforeAll1: Date;
let between: Date;

const GROUP = `edges { cursor node { vm { name } changes reasonText { code params message } } }
  pageInfo { hasNextPage endCursor }`;
const CHANGES = `query($since: DateTime!, $until: DateTime, $first: Int, $after: String) {
  inventoryChanges(since: $since, until: $until) {
    counts { added removed changed }
    added(first: $first, after: $after) { ${GROUP} }
    removed { ${GROUP} }
    changed { ${GROUP} } } }`;

interface Group {
  edges: {
    cursor: string;
    node: {
      vm: { name: string };
      changes: Record<string, unknown>;
      reasonText: { code: string; params: unknown; message: string } | null;
    };
  }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
interface Changes {
  inventoryChanges: {
    counts: { added: number; removed: number; changed: number };
    added: Group;
    removed: Group;
    changed: Group;
  };
}

async function changes(cookie: string, variables: Record<string, unknown>) {
  return (await app.graphql<Changes>(CHANGES, variables, { cookie })).body;
}
const names = (group: Group | undefined) => group?.edges.map((e) => e.node.vm.name);
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
  const { prisma } = app.services;
  beforeAll1 = new Date();
  await tick();
  const pve = await seedConnection(app.services, "PROXMOX", "pve", [
    neutralVm("1", { name: "alpha" }),
    neutralVm("2", { name: "bravo" }),
    neutralVm("3", { name: "charlie" }),
  ]);
  await seedConnection(app.services, "VCENTER", "hidden-vc", [
    neutralVm("vm-9", { name: "hidden" }),
  ]);
  await tick();
  between = new Date();
  await tick();
  await syncInto(app.services, pve.id, "PROXMOX", [
    neutralVm("1", { name: "alpha" }),
    neutralVm("3", { name: "charlie", state: "STOPPED", cpuCount: 4 }),
    neutralVm("4", { name: "delta" }),
  ]);
  viewer = await app.signedInAs("viewer");
  const group = await prisma.connectionGroup.create({ data: { name: "pve-only" } });
  await prisma.connectionGroupMember.create({ data: { groupId: group.id, connectionId: pve.id } });
  const user = await prisma.user.update({
    where: { username: "viewer" },
    data: { allConnections: false },
  });
  await prisma.userGroupGrant.create({ data: { userId: user.id, groupId: group.id } });
});
afterAll(async () => app?.close());

describe("inventoryChanges (docs/behaviour.md §9.51)", () => {
  it("lists the guests added, removed and changed since an instant, with what changed", async () => {
    const body = await changes(admin, { since: between.toISOString() });
    expect(body.errors).toBeUndefined();
    const result = body.data?.inventoryChanges;
    expect(result?.counts).toEqual({ added: 1, removed: 1, changed: 1 });
    expect(names(result?.added)).toEqual(["delta"]);
    expect(names(result?.removed)).toEqual(["bravo"]);
    expect(result?.removed.edges[0]?.node.changes).toHaveProperty("reason");
    // docs/behaviour.md §11.4: the reason as a code, saying the stored reason word for word.
    expect(result?.removed.edges[0]?.node.reasonText).toEqual({
      code: "removalNotInList",
      params: { list: expect.any(String) },
      message: result?.removed.edges[0]?.node.changes.reason,
    });
    expect(names(result?.changed)).toEqual(["charlie"]);
    expect(result?.changed.edges[0]?.node.changes).toMatchObject({
      state: { from: "RUNNING", to: "STOPPED" },
      cpuCount: { to: 4 },
    });
  });

  it("judges the two instants only: a guest that came and went between them is in no group", async () => {
    const body = await changes(admin, { since: beforeAll1.toISOString() });
    const result = body.data?.inventoryChanges;
    expect(names(result?.added)).toEqual(["alpha", "charlie", "delta", "hidden"]);
    expect(result?.counts).toEqual({ added: 4, removed: 0, changed: 0 });
    const early = await changes(admin, {
      since: beforeAll1.toISOString(),
      until: between.toISOString(),
    });
    expect(names(early.data?.inventoryChanges.added)).toEqual([
      "alpha",
      "bravo",
      "charlie",
      "hidden",
    ]);
  });

  it("a viewer sees the changes of the connections they see only", async () => {
    const body = await changes(viewer, { since: beforeAll1.toISOString() });
    expect(names(body.data?.inventoryChanges.added)).toEqual(["alpha", "charlie", "delta"]);
    expect(body.data?.inventoryChanges.counts.added).toBe(3);
  });

  it("pages each group by name", async () => {
    const since = beforeAll1.toISOString();
    const first = await changes(admin, { since, first: 3 });
    const page = first.data?.inventoryChanges.added;
    expect(names(page)).toEqual(["alpha", "charlie", "delta"]);
    expect(page?.pageInfo.hasNextPage).toBe(true);
    const next = await changes(admin, { since, first: 3, after: page?.pageInfo.endCursor });
    expect(names(next.data?.inventoryChanges.added)).toEqual(["hidden"]);
    expect(next.data?.inventoryChanges.added.pageInfo.hasNextPage).toBe(false);
  });

  it("an end before the start is refused, saying so", async () => {
    const body = await changes(admin, {
      since: between.toISOString(),
      until: beforeAll1.toISOString(),
    });
    expect(body.errors?.[0]?.message).toBe("“Until” must be after “since”.");
    expect(body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  // Last: it rewrites a stored reason.
  it("a reason reworded after it was stored keeps its English and has no code", async () => {
    await app.services.prisma
      .$executeRaw`UPDATE vm_events SET changes = jsonb_set(changes, '{reason}', '"retired by hand"') WHERE type = 'REMOVED'`;
    const body = await changes(admin, { since: between.toISOString() });
    const removed = body.data?.inventoryChanges.removed.edges[0]?.node;
    expect(removed?.changes.reason).toBe("retired by hand");
    expect(removed?.reasonText).toBeNull();
  });
});
