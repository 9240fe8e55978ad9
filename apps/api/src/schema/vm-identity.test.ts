// Identity and names as users know them, end to end (docs/behaviour.md §6.3, §9.2): a vCenter and a
// Proxmox stand-in synced through the API's services, then read through GraphQL as the detail
// drawer and the list's filters read them.
import {
  createProxmoxStandin,
  createVcenterStandin,
  DEMO_VCENTER_IDS,
  demoCluster,
} from "@hyperlens/standins/testing";
import { expect, it } from "vitest";
import { syncConnection } from "../syncs/coordinator.ts";
import { eachFileConnectedTo, saveStandinConnection } from "../testing/standin-connections.ts";

const vcenter = eachFileConnectedTo("VCENTER", "vcenter", () => createVcenterStandin());

const DETAIL = `query($search: String!) {
  virtualMachines(first: 5, filter: { search: $search }) { edges { node {
    name guestOs guestOsCode biosUuid instanceUuid
    nics { key label } disks { key label }
  } } }
}`;

type Detail = {
  name: string;
  guestOs: string | null;
  guestOsCode: string | null;
  biosUuid: string | null;
  instanceUuid: string | null;
  nics: { key: string; label: string | null }[];
  disks: { key: string; label: string | null }[];
};

let viewer: string | undefined;
async function signedIn(): Promise<string> {
  viewer ??= await vcenter.app.signedInAs("viewer", { capabilities: ["VIEW_INVENTORY"] });
  return viewer;
}

async function search(search: string): Promise<Detail[]> {
  const app = vcenter.app;
  const cookie = await signedIn();
  const res = await app.graphql<{ virtualMachines: { edges: { node: Detail }[] } }>(
    DETAIL,
    { search },
    { cookie },
  );
  if (!res.body.data) throw new Error(JSON.stringify(res.body));
  return res.body.data.virtualMachines.edges.map((e) => e.node);
}

it("stores and serves vCenter labels, the OS name with its code, and both UUIDs; the UUIDs find the VM", async () => {
  expect((await vcenter.sync()).outcome).toBe("SUCCESS");
  const served = vcenter.standin.model.vm(DEMO_VCENTER_IDS.vmDb01);
  if (!served) throw new Error("the stand-in has no db-01");
  const [db] = await search(DEMO_VCENTER_IDS.vmDb01);
  expect(db).toMatchObject({
    name: "db-01",
    guestOs: "Red Hat Enterprise Linux 9 (64-bit)",
    guestOsCode: "RHEL_9_64",
    biosUuid: served.biosUuid,
    instanceUuid: served.instanceUuid,
  });
  expect(db?.nics.map((n) => n.label)).toEqual(["Network adapter 1", "Network adapter 2"]);
  expect(db?.disks.map((d) => d.label)).toEqual(["Hard disk 1", "Hard disk 2"]);
  expect((await search(served.biosUuid.toUpperCase())).map((vm) => vm.name)).toEqual(["db-01"]);
  expect((await search(served.instanceUuid)).map((vm) => vm.name)).toEqual(["db-01"]);
});

it("filters templates in or out; left alone, the filter lists both", async () => {
  const standin = await createProxmoxStandin({ cluster: demoCluster() });
  try {
    const app = vcenter.app;
    const connection = await saveStandinConnection(app.services, "PROXMOX", standin, "pve");
    const result = await syncConnection(app.services, connection.id, { trigger: "MANUAL" }).done;
    expect(result.outcome).not.toBe("FAILED");
    const cookie = await signedIn();
    const names = async (isTemplate: string) => {
      const res = await app.graphql<{
        virtualMachines: { totalCount: number; edges: { node: { name: string } }[] };
      }>(
        `query { virtualMachines(first: 500, filter: { source: [PROXMOX]${isTemplate} }) {
          totalCount edges { node { name } } } }`,
        {},
        { cookie },
      );
      if (!res.body.data) throw new Error(JSON.stringify(res.body));
      return res.body.data.virtualMachines.edges.map((e) => e.node.name);
    };
    const all = await names("");
    expect(await names(", isTemplate: true")).toEqual(["ubuntu-24.04-template"]);
    const machines = await names(", isTemplate: false");
    expect(machines).not.toContain("ubuntu-24.04-template");
    expect(machines.length).toBe(all.length - 1);
  } finally {
    await standin.close();
  }
});
