// docs/behaviour.md §9.43: the list's one search box finds a guest by a subnet its addresses are
// in, by its MAC in any common form, by a tag, and by where it runs — beside name, address and id
// (§9.2). A malformed subnet is an error, never an empty list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const LIST = `query($search: String!) {
  virtualMachines(filter: { search: $search }, first: 100) { edges { node { name } } }
}`;

let app: TestApp;
let viewer: string;

const accepted = (address: string) => ({
  address,
  origin: "STATIC_CONFIG" as const,
  nicKey: "net0",
  isAccepted: true,
});

beforeAll(async () => {
  app = await startTestApp();
  viewer = await app.signedInAs("viewer", { capabilities: ["VIEW_INVENTORY"] });
  await seedConnection(app.services, "PROXMOX", "pve", [
    neutralVm("101", {
      name: "alpha",
      tags: ["web", "prod"],
      location: { nodeName: "pve-node1", clusterName: "lab1" },
      nics: [{ key: "net0", mac: "bc:24:11:aa:bb:01" }],
      ips: [accepted("10.10.0.5"), accepted("fd00::5")],
    }),
  ]);
  await seedConnection(app.services, "VCENTER", "vc", [
    neutralVm("vm-77", {
      name: "beta",
      tags: ["db"],
      location: { datacenterName: "DC-East", clusterName: "Gold", hostName: "esx01.lab" },
      nics: [{ key: "4000", mac: "00:50:56:aa:bb:02" }],
      ips: [
        { ...accepted("10.10.1.5"), nicKey: "4000" },
        { ...accepted("2001:db8::1"), nicKey: "4000" },
      ],
    }),
  ]);
  await seedConnection(app.services, "VCD", "vcd", [
    neutralVm("urn:vcloud:vm:00000000-0000-4000-8000-000000000001", {
      name: "gamma",
      location: { orgName: "Acme", vdcName: "Acme-VDC" },
      nics: [{ key: "0", mac: "00:50:56:aa:bb:03" }],
      ips: [
        { ...accepted("10.9.255.1"), nicKey: "0" },
        // Rejected addresses are not the guest's: a subnet search must not find it by this one.
        {
          address: "10.10.0.99",
          origin: "AGENT",
          interfaceName: "docker0",
          isAccepted: false,
          rejectReason: "ignored interface",
        },
      ],
    }),
  ]);
});
afterAll(async () => app?.close());

async function search(term: string) {
  const res = await app.graphql<{ virtualMachines: { edges: { node: { name: string } }[] } }>(
    LIST,
    { search: term },
    { cookie: viewer },
  );
  return res.body;
}

async function found(term: string): Promise<string[]> {
  const body = await search(term);
  if (!body.data) throw new Error(JSON.stringify(body));
  return body.data.virtualMachines.edges.map((edge) => edge.node.name).sort();
}

describe("a subnet finds the guests with an accepted address inside it", () => {
  it.each([
    ["10.10.0.0/24", ["alpha"]],
    ["10.10.0.0/23", ["alpha", "beta"]],
    ["10.8.0.0/14", ["alpha", "beta", "gamma"]],
    ["10.10.0.5/32", ["alpha"]],
    ["10.11.0.0/16", []],
    ["fd00::/64", ["alpha"]],
    ["2001:DB8::/32", ["beta"]],
    ["::/0", ["alpha", "beta"]],
  ])("%s", async (subnet, names) => {
    expect(await found(subnet)).toEqual(names);
  });

  it.each([
    ["10.0.0.0/33", "the prefix length must be a number from 0 to 32"],
    ["fd00::/129", "the prefix length must be a number from 0 to 128"],
    ["10.0.0.1/24", "the subnet is 10.0.0.0/24"],
    ["10.0.0/8", "10.0.0 is not an IPv4 or IPv6 address"],
  ])("%s is an error that says what is wrong, not an empty list", async (subnet, reason) => {
    const body = await search(subnet);
    expect(body.data?.virtualMachines ?? null).toBeNull();
    const error = body.errors?.[0] as
      | { message: string; extensions?: { code?: string; field?: string } }
      | undefined;
    expect(error?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(error?.extensions?.field).toBe("filter.search");
    expect(error?.message).toContain(reason);
  });
});

describe("other forms of the search", () => {
  it.each([
    ["bc:24:11:aa:bb:01", ["alpha"]],
    ["BC-24-11-AA-BB-01", ["alpha"]],
    ["bc24.11aa.bb01", ["alpha"]],
    ["005056AABB02", ["beta"]],
  ])("MAC %s", async (mac, names) => {
    expect(await found(mac)).toEqual(names);
  });

  it.each([
    ["web", ["alpha"]],
    ["db", ["beta"]],
  ])("tag %s, whole", async (tag, names) => {
    expect(await found(tag)).toEqual(names);
  });

  it.each([
    ["PVE-NODE1", ["alpha"]],
    ["lab1", ["alpha"]],
    ["esx01.lab", ["beta"]],
    ["gold", ["beta"]],
    ["dc-east", ["beta"]],
    ["acme", ["gamma"]],
    ["acme-vdc", ["gamma"]],
    ["pve-node", []],
  ])("where it runs: %s, whole, any case", async (place, names) => {
    expect(await found(place)).toEqual(names);
  });

  it("still finds by name, address part and id", async () => {
    expect(await found("ALP")).toEqual(["alpha"]);
    expect(await found("10.10.")).toEqual(["alpha", "beta"]);
    expect(await found("vm-77")).toEqual(["beta"]);
  });
});
