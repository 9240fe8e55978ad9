// docs/behaviour.md §9.2: the list's search finds a guest by its source's own id, whole — a
// Proxmox VMID, a vCenter MoRef, a Director URN — as people copy it from the source's own UI,
// and by its BIOS or instance UUID, whole, in either case.
import { afterAll, beforeAll, expect, it } from "vitest";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const URN = "urn:vcloud:vm:3f9c2a1b-7d4e-4f00-9a6b-0c1d2e3f4a5b";
const BIOS = "4231943a-a1b5-9d24-1e05-d447e9ff0396";
const INSTANCE = "5031e081-01a7-d61a-31f8-4bc54057ec60";
const SMBIOS = "863b31c3-42ca-4a92-aed7-4111f342f70a";
const LIST = `query($search: String!) {
  virtualMachines(filter: { search: $search }, first: 100) { edges { node { name } } }
}`;

let app: TestApp;
let viewer: string;

beforeAll(async () => {
  app = await startTestApp();
  viewer = await app.signedInAs("viewer", { capabilities: ["VIEW_INVENTORY"] });
  await seedConnection(app.services, "PROXMOX", "pve", [
    neutralVm("101", { name: "proxmox-guest", biosUuid: SMBIOS }),
    neutralVm("1010", { name: "proxmox-neighbour" }),
  ]);
  await seedConnection(app.services, "VCENTER", "vc", [
    neutralVm("vm-1049", { name: "vcenter-guest", biosUuid: BIOS, instanceUuid: INSTANCE }),
  ]);
  await seedConnection(app.services, "VCD", "vcd", [neutralVm(URN, { name: "director-guest" })]);
});
afterAll(async () => app?.close());

async function found(search: string): Promise<string[]> {
  const res = await app.graphql<{ virtualMachines: { edges: { node: { name: string } }[] } }>(
    LIST,
    { search },
    { cookie: viewer },
  );
  if (!res.body.data) throw new Error(JSON.stringify(res.body));
  return res.body.data.virtualMachines.edges.map((edge) => edge.node.name).sort();
}

it("finds a guest by its VMID, MoRef or URN, whole", async () => {
  expect(await found("101")).toEqual(["proxmox-guest"]);
  expect(await found("vm-1049")).toEqual(["vcenter-guest"]);
  expect(await found(` ${URN} `)).toEqual(["director-guest"]);
});

it("does not match part of an id: 10 is neither VMID 101 nor 1010", async () => {
  expect(await found("10")).toEqual([]);
  expect(await found("vm-104")).toEqual([]);
});

it("still finds by name alongside", async () => {
  expect(await found("guest")).toEqual(["director-guest", "proxmox-guest", "vcenter-guest"]);
});

it("finds a guest by its BIOS or instance UUID, whole, in either case", async () => {
  expect(await found(BIOS)).toEqual(["vcenter-guest"]);
  expect(await found(INSTANCE.toUpperCase())).toEqual(["vcenter-guest"]);
  expect(await found(SMBIOS)).toEqual(["proxmox-guest"]);
  expect(await found(BIOS.slice(0, 8))).toEqual([]);
});
