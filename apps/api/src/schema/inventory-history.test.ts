// The history query (docs/behaviour.md §9.50): sums per source from the samples, only of the
// connections the viewer sees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedConnection } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

let app: TestApp;
let admin: string;
let viewer: string;
const ids = { "pve-a": "", "pve-b": "", vc: "" };

const HISTORY = `query($from: DateTime!, $to: DateTime, $source: ConnectionKind) {
  inventoryHistory(from: $from, to: $to, source: $source) {
    source points { at vms containers running } } }`;

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));

async function sample(connection: keyof typeof ids, minute: number, vms: number, running = vms) {
  await app.services.prisma.inventorySample.create({
    data: { connectionId: ids[connection], at: at(minute), vms, containers: 1, running },
  });
}

async function history(cookie: string, variables: Record<string, unknown>) {
  const res = await app.graphql<{
    inventoryHistory: { source: string; points: { at: string; vms: number; running: number }[] }[];
  }>(HISTORY, variables, { cookie });
  return res.body;
}

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
  const { prisma } = app.services;
  for (const [name, kind] of [
    ["pve-a", "PROXMOX"],
    ["pve-b", "PROXMOX"],
    ["vc", "VCENTER"],
  ] as const) {
    ids[name] = (await seedConnection(app.services, kind, name, [])).id;
  }
  // Seeding synced each once: those samples are "now", after the range these tests read.
  await prisma.inventorySample.deleteMany({});
  await sample("pve-a", 0, 10);
  await sample("pve-b", 5, 3);
  await sample("pve-a", 10, 12, 7);
  await sample("vc", 10, 40);
  await sample("vc", 30, 41);
  // A viewer granted only pve-a's group.
  viewer = await app.signedInAs("viewer");
  const group = await prisma.connectionGroup.create({ data: { name: "a-only" } });
  await prisma.connectionGroupMember.create({
    data: { groupId: group.id, connectionId: ids["pve-a"] },
  });
  const user = await prisma.user.update({
    where: { username: "viewer" },
    data: { allConnections: false },
  });
  await prisma.userGroupGrant.create({ data: { userId: user.id, groupId: group.id } });
});
afterAll(async () => app?.close());

describe("inventoryHistory (docs/behaviour.md §9.50)", () => {
  it("sums each source's connections at every sample, each counted with its latest so far", async () => {
    const body = await history(admin, { from: at(1), to: at(20), source: "PROXMOX" });
    expect(body.errors).toBeUndefined();
    expect(body.data?.inventoryHistory).toEqual([
      {
        source: "PROXMOX",
        points: [
          // pve-a's sample before the range opens it.
          { at: at(1).toISOString(), vms: 10, containers: 1, running: 10 },
          { at: at(5).toISOString(), vms: 13, containers: 2, running: 13 },
          { at: at(10).toISOString(), vms: 15, containers: 2, running: 10 },
        ],
      },
    ]);
  });

  it("gives one series per source the viewer has a connection of", async () => {
    const body = await history(admin, { from: at(0), to: at(60) });
    expect(body.data?.inventoryHistory.map((s) => [s.source, s.points.map((p) => p.vms)])).toEqual([
      ["PROXMOX", [10, 13, 15]],
      ["VCENTER", [40, 41]],
    ]);
  });

  it("a viewer's figures count only the connections they see", async () => {
    const body = await history(viewer, { from: at(0), to: at(60) });
    expect(body.data?.inventoryHistory.map((s) => [s.source, s.points.map((p) => p.vms)])).toEqual([
      ["PROXMOX", [10, 12]],
    ]);
  });

  it("a range whose end is not after its start is refused, saying so", async () => {
    const body = await history(admin, { from: at(10), to: at(5) });
    expect(body.errors?.[0]?.message).toBe("The end of the range must be after its start.");
    expect(body.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});
