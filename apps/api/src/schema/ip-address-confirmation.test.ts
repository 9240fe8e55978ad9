// An address's lastConfirmedAt through the API: seen again means confirmed again, though an
// unchanged guest's rows are never rewritten; a last-known address keeps the time it was last seen.
import type { NeutralVm } from "@hyperlens/shared";
import { runSync } from "@hyperlens/sync";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

let app: TestApp;
let viewer: string;
let connectionId: string;
let connectionName: string;
let clockAt = Date.parse("2026-03-01T00:00:00Z");

type Guest = {
  id: string;
  name: string;
  lastSeenAt: string;
  ipAddresses: { address: string; lastConfirmedAt: string }[];
};

const GUEST = "id name lastSeenAt ipAddresses { address lastConfirmedAt }";

beforeAll(async () => {
  app = await startTestApp();
  viewer = await app.signedInAs("viewer", { capabilities: ["VIEW_INVENTORY"] });
});
afterAll(async () => app?.close());
beforeEach(async () => {
  connectionName = `pve-${clockAt}`;
  connectionId = (await seedConnection(app.services, "PROXMOX", connectionName, [])).id;
});

const web = (overrides: Partial<NeutralVm> = {}) =>
  neutralVm("100", {
    name: "web-01",
    ips: [
      { address: "10.0.0.10", origin: "AGENT", nicKey: "net0", isAccepted: true },
      { address: "192.168.5.10", origin: "STATIC_CONFIG", nicKey: "net0", isAccepted: true },
    ],
    ...overrides,
  });
const others = [neutralVm("101"), neutralVm("102")];

/** One sync of these guests, a minute after the last one; returns its time and counts. */
async function syncAt(vms: NeutralVm[]) {
  clockAt += 60_000;
  const at = new Date(clockAt);
  const result = await runSync({
    prisma: app.services.prisma,
    connectionId,
    source: "PROXMOX",
    trigger: "MANUAL",
    read: async () => ({ lists: [{ key: "vms", status: "ok", vms }] }),
    now: () => at,
  });
  return { at: at.toISOString(), counts: result.counts };
}

/** web-01 as the list reads it (one statement) and as node(id) reads it (Prisma). */
async function readWeb(): Promise<Guest> {
  const connections = await app.graphql<{ connections: { id: string; name: string }[] }>(
    "{ connections { id name } }",
    {},
    { cookie: viewer },
  );
  const connection = connections.body.data?.connections.find((c) => c.name === connectionName);
  const list = await app.graphql<{ virtualMachines: { edges: { node: Guest }[] } }>(
    `query($id: ID!) { virtualMachines(filter: { connectionId: [$id], includeRemoved: true }) {
      edges { node { ${GUEST} } } } }`,
    { id: connection?.id },
    { cookie: viewer },
  );
  expect(list.body.errors).toBeUndefined();
  const fromList = list.body.data?.virtualMachines.edges.find((e) => e.node.name === "web-01");
  if (!fromList) throw new Error("web-01 is not listed");
  const node = await app.graphql<{ node: Guest }>(
    `query($id: ID!) { node(id: $id) { ... on VirtualMachine { ${GUEST} } } }`,
    { id: fromList.node.id },
    { cookie: viewer },
  );
  expect(node.body.errors).toBeUndefined();
  expect(node.body.data?.node).toEqual(fromList.node);
  return fromList.node;
}

const confirmedAt = (guest: Guest) =>
  Object.fromEntries(guest.ipAddresses.map((ip) => [ip.address, ip.lastConfirmedAt]));

describe("an address's lastConfirmedAt", () => {
  it("moves with its guest's last sighting over unchanged syncs that write no rows", async () => {
    await syncAt([web(), ...others]);
    let last = "";
    for (let n = 2; n <= 4; n++) {
      const sync = await syncAt([web(), ...others]);
      expect(sync.counts.rowsWritten).toBe(0);
      last = sync.at;
    }
    const guest = await readWeb();
    expect(guest.lastSeenAt).toBe(last);
    expect(confirmedAt(guest)).toEqual({ "10.0.0.10": last, "192.168.5.10": last });
  });

  it("of a last-known address stays at the last sync that saw it while its guest moves on", async () => {
    await syncAt([web(), ...others]);
    const lastWithAgent = (await syncAt([web(), ...others])).at;
    // The agent falls silent: the static address is still read, the agent's is kept as last-known.
    const silent = web({
      state: "STOPPED",
      ipsFromGuestAreLive: false,
      ips: [{ address: "192.168.5.10", origin: "STATIC_CONFIG", nicKey: "net0", isAccepted: true }],
    });
    await syncAt([silent, ...others]);
    await syncAt([silent, ...others]);
    const last = await syncAt([silent, ...others]);
    expect(last.counts.rowsWritten).toBe(0);
    const guest = await readWeb();
    expect(guest.lastSeenAt).toBe(last.at);
    expect(confirmedAt(guest)).toEqual({ "10.0.0.10": lastWithAgent, "192.168.5.10": last.at });
  });

  it("is its guest's again after the guest is removed and comes back unchanged", async () => {
    await syncAt([web(), ...others]);
    const removed = await syncAt(others);
    expect(removed.counts.removed).toBe(1);
    const back = await syncAt([web(), ...others]);
    const guest = await readWeb();
    expect(guest.lastSeenAt).toBe(back.at);
    expect(confirmedAt(guest)).toEqual({ "10.0.0.10": back.at, "192.168.5.10": back.at });
  });
});
