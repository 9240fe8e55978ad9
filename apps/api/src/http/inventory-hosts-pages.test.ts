// docs/behaviour.md §14.10: an export reads its guests a page at a time, several pages ahead, each
// page by a range of ids and the ids the filter chose — every listed guest once, in id order, and
// no guest the filter or a removal left out, however the pages fall.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Viewer } from "../auth/viewer.ts";
import type { AppServices } from "../context.ts";
import { buildVmWhere } from "../schema/virtual-machine-filter.ts";
import { neutralVm, seedConnection, syncInto } from "../testing/seed-inventory.ts";
import { createTestServices } from "../testing/test-app.ts";
import { inventoryHosts } from "./inventory-hosts.ts";

let services: AppServices;
const admin: Viewer = {
  kind: "USER",
  userId: "00000000-0000-4000-8000-000000000001",
  username: "admin",
  isAdmin: true,
  capabilities: new Set(),
  scope: { all: true },
};

const GUESTS = 40;
const guest = (i: number) =>
  neutralVm(String(100 + i), {
    name: `vm-${i}`,
    state: i % 3 === 0 ? "STOPPED" : "RUNNING",
    ips: [{ address: `10.0.0.${i}`, origin: "AGENT", nicKey: "net0", isAccepted: true }],
    nics: [{ key: "net0", mac: `bc:24:11:00:00:${i.toString(16).padStart(2, "0")}` }],
  });

beforeAll(async () => {
  ({ services } = await createTestServices());
  const all = Array.from({ length: GUESTS }, (_, i) => guest(i));
  const connection = await seedConnection(services, "PROXMOX", "pve", all);
  // Every fifth guest is removed by a later sync: a tombstone sits between listed ids.
  await syncInto(
    services,
    connection.id,
    "PROXMOX",
    all.filter((_, i) => i % 5 !== 4),
  );
});
afterAll(async () => services?.db.close());

async function listed(filter: Parameters<typeof buildVmWhere>[0], pageSize: number) {
  const pages: string[][] = [];
  const where = buildVmWhere(filter);
  const preference = { family: "ipv4" as const, subnets: [] };
  for await (const page of inventoryHosts(services.prisma, admin, where, preference, {
    pageSize,
  })) {
    pages.push(page.map((host) => host.row.name));
  }
  return pages;
}

it.each([1, 3, 7, 100])(
  "pages of %i list every running, live guest once, in id order",
  async (size) => {
    const expected = await services.prisma.virtualMachine.findMany({
      where: { removedAt: null, state: "RUNNING" },
      orderBy: { id: "asc" },
      select: { name: true },
    });
    expect(expected.length).toBeGreaterThan(15);
    const pages = await listed({ state: ["RUNNING"] }, size);
    expect(pages.flat()).toEqual(expected.map((vm) => vm.name));
    expect(pages.every((page) => page.length <= size)).toBe(true);
  },
);

it("reads each guest's MACs in NIC order unless asked without them (§14.10)", async () => {
  const where = buildVmWhere({ search: "vm-7" });
  const preference = { family: "ipv4" as const, subnets: [] };
  const read = async (withMacs?: boolean) => {
    const hosts = [];
    for await (const page of inventoryHosts(services.prisma, admin, where, preference, {
      withMacs,
    }))
      hosts.push(...page);
    return hosts.map((host) => ({ name: host.row.name, macs: host.macs }));
  };
  expect(await read()).toEqual([{ name: "vm-7", macs: ["bc:24:11:00:00:07"] }]);
  expect(await read(false)).toEqual([{ name: "vm-7", macs: [] }]);
});
