// Director VMs located in their org (docs/behaviour.md §6.3), read against the Director stand-in: a
// provider's admin records name the org by href only, so a provider session reads the org list
// once; a tenant never asks (its VMs take the session's org); a failed read costs only the names.
import type { HyperLogger } from "@hyperlens/hyper-http";
import type { NeutralVm } from "@hyperlens/shared";
import {
  createVcdStandin,
  DEFAULT_VCD_PASSWORD,
  type VcdStandin,
} from "@hyperlens/standins/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createVcdClient } from "../client.ts";
import { readVcdInventory } from "./read-inventory.ts";

const PROVIDER = { username: "administrator@System", password: DEFAULT_VCD_PASSWORD };
const TENANT = { username: "inventory@acme", password: DEFAULT_VCD_PASSWORD };
const PATH = "/cloudapi/1.0.0/orgs";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function director(): Promise<VcdStandin> {
  const standin = await createVcdStandin();
  cleanups.push(() => standin.close());
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
      connectionId: "vcd-orgs",
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
  const [list] = (await readVcdInventory(client)).lists;
  if (list?.status !== "ok") throw new Error(`the VM list is ${list?.status}`);
  return { vms: list.vms, warnings };
}

/** Each VM's org as the stand-in's model places it. */
function modelOrgs(standin: VcdStandin, vms: NeutralVm[]): (string | undefined)[] {
  return vms.map((vm) => {
    const served = standin.model.vms.find((v) => vm.externalId.endsWith(v.id));
    return served ? standin.model.placement(served)?.org.name : undefined;
  });
}

const asked = (standin: VcdStandin) => standin.requests.filter((r) => r.path === PATH);

describe("the org of each Director VM", () => {
  it("a provider read names every VM's org, from one read of the org list", async () => {
    const standin = await director();
    const { vms } = await read(standin);
    const orgs = vms.map((vm) => vm.location.orgName);
    expect(orgs.every((name) => typeof name === "string")).toBe(true);
    expect(orgs).toEqual(modelOrgs(standin, vms));
    expect(vms.every((vm) => (vm.details.location as { org: string }).org)).toBe(true);
    expect(asked(standin)).toHaveLength(1);
  });

  it("a tenant read takes its session's org and never asks for the list", async () => {
    const standin = await director();
    const { vms } = await read(standin, TENANT);
    expect(new Set(vms.map((vm) => vm.location.orgName))).toEqual(new Set(["acme"]));
    expect(asked(standin)).toHaveLength(0);
  });

  it("a failed org list keeps the VMs, without their org, and says why", async () => {
    const standin = await director();
    standin.faults.fail(PATH, 500);
    const { vms, warnings } = await read(standin);
    expect(vms.length).toBeGreaterThan(0);
    expect(vms.every((vm) => vm.location.orgName === undefined)).toBe(true);
    expect(warnings.map((w) => w.msg)).toEqual([
      expect.stringContaining("organizations could not be read"),
    ]);
  });
});
