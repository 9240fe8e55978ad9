// Which vCenter backs each Director VM, as an address a vCenter connection can be matched on
// (docs/behaviour.md §10), read against the Director stand-in: a provider session reads the registered
// vCenters once, a tenant never asks, and a failed read costs only the addresses.
import type { HyperLogger } from "@hyperlens/hyper-http";
import {
  BACKING_VCENTER_HOST_DETAIL_PATH,
  type JsonValue,
  type NeutralVm,
} from "@hyperlens/shared";
import {
  createVcdStandin,
  DEFAULT_VCD_PASSWORD,
  DEMO_IDS,
  type VcdStandin,
} from "@hyperlens/standins/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createVcdClient } from "../client.ts";
import { readVcdInventory } from "./read-inventory.ts";

const PROVIDER = { username: "administrator@System", password: DEFAULT_VCD_PASSWORD };
const TENANT = { username: "inventory@acme", password: DEFAULT_VCD_PASSWORD };
const PATH = "/cloudapi/1.0.0/virtualCenters";
const VC02 = {
  id: "5e1a0c2b-7d3f-4b9e-8a6c-0f2d4e6a8b1c",
  name: "vc02",
  url: "https://VC02.Example.test:8443/",
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function director(options: { cloudApiMaxPageSize?: number } = {}): Promise<VcdStandin> {
  const standin = await createVcdStandin(options);
  cleanups.push(() => standin.close());
  standin.model.vcenter.url = "https://VC01.example.test:443/sdk";
  standin.model.addVcenter(VC02);
  standin.model.updateVm(DEMO_IDS.vmDb01, { vcenterId: VC02.id });
  return standin;
}

async function read(standin: VcdStandin, credentials = PROVIDER) {
  const warnings: Record<string, unknown>[] = [];
  // hyper-http logs every failed call too; the adapter's own warnings are the rest.
  const logger: HyperLogger = {
    info() {},
    warn: (entry) => entry.msg !== "hypervisor call" && warnings.push(entry),
  };
  const client = createVcdClient({
    http: {
      connectionId: "vcd-hosts",
      baseUrl: standin.url,
      caPem: standin.caPem,
      // The stand-in listens on loopback, which hyper-http refuses unless told otherwise.
      allowLoopbackTargets: true,
      retry: { attempts: 1 },
      logger,
    },
    credentials,
  });
  cleanups.push(() => client.close());
  const snapshot = await readVcdInventory(client);
  const [list] = snapshot.lists;
  if (list?.status !== "ok") throw new Error(`the VM list is ${list?.status}`);
  const byName = new Map<string, NeutralVm>(list.vms.map((vm) => [vm.name, vm]));
  return { vms: list.vms, byName, warnings };
}

const asked = (standin: VcdStandin) => standin.requests.filter((r) => r.path === PATH);

describe("the vCenter address of each Director VM", () => {
  it("each VM's details keep its vCenter's host where the API's cross-source links read it", async () => {
    const { vms } = await read(await director());
    const stored = (vm: NeutralVm) =>
      BACKING_VCENTER_HOST_DETAIL_PATH.reduce<JsonValue | undefined>(
        (value, key) =>
          value !== null && typeof value === "object" && !Array.isArray(value)
            ? value[key]
            : undefined,
        vm.details,
      );
    const backed = vms.filter((vm) => vm.backing?.vcenterHost);
    expect(backed.length).toBeGreaterThan(0);
    for (const vm of backed) expect(stored(vm)).toBe(vm.backing?.vcenterHost);
  });

  it("a provider reads the registered vCenters (every page) and each VM names its vCenter's host", async () => {
    const standin = await director({ cloudApiMaxPageSize: 1 });
    const { byName, warnings } = await read(standin);
    expect(byName.get("web-01")?.backing).toEqual({
      vcenterId: standin.model.vcenter.id,
      moref: "vm-1001",
      vcenterHost: "vc01.example.test",
    });
    expect(byName.get("db-01")?.backing).toMatchObject({
      vcenterId: VC02.id,
      vcenterHost: "vc02.example.test:8443",
    });
    expect(byName.get("db-01")?.details).toMatchObject({
      vcd: { vcenter: { name: "vc02", vcenterHost: "vc02.example.test:8443" } },
    });
    expect(asked(standin).map((r) => r.query)).toEqual([
      "page=1&pageSize=128",
      "page=2&pageSize=128",
    ]);
    expect(warnings).toEqual([]);
  });

  it("a tenant never asks for the vCenters (tenants get 403) and its VMs carry no backing", async () => {
    const standin = await director();
    const { vms, warnings } = await read(standin, TENANT);
    expect(vms.length).toBeGreaterThan(0);
    expect(asked(standin)).toEqual([]);
    expect(vms.every((vm) => vm.backing === undefined)).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("a failed vCenter list leaves the VM list ok, with vCenter id and moref but no host, and warns", async () => {
    const standin = await director();
    standin.faults.fail(PATH, 500);
    const { vms, byName, warnings } = await read(standin);
    expect(vms).toHaveLength(standin.model.vms.length - 1);
    expect(byName.get("web-01")?.backing).toEqual({
      vcenterId: standin.model.vcenter.id,
      moref: "vm-1001",
    });
    expect(vms.every((vm) => vm.backing?.vcenterHost === undefined)).toBe(true);
    expect(byName.get("web-01")?.details).toMatchObject({
      vcd: { vcenter: { vcenterHost: null } },
    });
    expect(warnings).toEqual([
      expect.objectContaining({
        msg: expect.stringContaining("registered vCenters could not be read"),
      }),
    ]);
    expect(standin.openSessions).toBe(0);
  });

  it("an unreadable vCenter list (an HTML page from a proxy) is no worse than a failed one", async () => {
    const standin = await director();
    standin.faults.html(PATH);
    const { vms, warnings } = await read(standin);
    expect(vms.length).toBeGreaterThan(0);
    expect(
      vms.every((vm) => vm.backing !== undefined && vm.backing.vcenterHost === undefined),
    ).toBe(true);
    expect(warnings).toHaveLength(1);
  });
});
