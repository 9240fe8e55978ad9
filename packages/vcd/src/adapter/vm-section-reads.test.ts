// The Director read pipeline against the Director stand-in: sections are read while later query
// pages are fetched, page and section requests share the connection's request cap, and a page
// that fails after sections were read still fails the whole list, with nothing left on the wire.
import type { ListRead } from "@hyperlens/shared";
import {
  createVcdStandin,
  DEFAULT_VCD_PASSWORD,
  generateDirector,
  type VcdStandin,
} from "@hyperlens/standins/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createVcdClient } from "../client.ts";
import { readVcdInventory } from "./read-inventory.ts";

const PROVIDER = { username: "administrator@System", password: DEFAULT_VCD_PASSWORD };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function standinWith(vms: number, pageCap: number): Promise<VcdStandin> {
  const standin = await createVcdStandin({
    model: generateDirector({ orgs: 1, vdcsPerOrg: 1, vms, edgeGateways: 1, seed: 7 }),
    maxPageSize: pageCap,
    latencyMs: 5,
  });
  cleanups.push(() => standin.close());
  return standin;
}

async function readAll(standin: VcdStandin, perConnection = 4) {
  const client = createVcdClient({
    http: {
      connectionId: "vcd-pipeline",
      baseUrl: standin.url,
      caPem: standin.caPem,
      // The stand-in listens on loopback, which hyper-http refuses unless told otherwise.
      allowLoopbackTargets: true,
      retry: { attempts: 1 },
      concurrency: { perConnection },
    },
    credentials: PROVIDER,
  });
  cleanups.push(() => client.close());
  const snapshot = await readVcdInventory(client, { parallelVms: 16 });
  const [list] = snapshot.lists;
  if (!list) throw new Error("no list");
  return list;
}

const isPage = (path: string) => path === "/api/query";
const isSection = (path: string) =>
  /\/(networkConnectionSection|virtualHardwareSection)\//.test(path);

function reasonOf(list: ListRead): string {
  return list.status === "failed" ? list.reason : "";
}

describe("Director VM sections, read while the pages come in", () => {
  it("asks for a page's NIC and disk sections before the last query page", async () => {
    const standin = await standinWith(60, 10);
    const list = await readAll(standin);
    expect(list.status).toBe("ok");
    const paths = standin.requests.map((r) => r.path);
    const firstSection = paths.findIndex(isSection);
    const lastPage = paths.findLastIndex(isPage);
    expect(firstSection).toBeGreaterThan(-1);
    expect(firstSection).toBeLessThan(lastPage);
  });

  it("keeps page and section requests together within the connection's request cap", async () => {
    const standin = await standinWith(60, 10);
    const list = await readAll(standin, 3);
    expect(list.status).toBe("ok");
    const vms = standin.model.vms.filter((vm) => !standin.model.vapp(vm.vappId)?.template);
    expect(list.status === "ok" && list.vms).toHaveLength(vms.length);
    expect(standin.stats.maxInFlight).toBe(3);
  });

  it("a page failing after sections were read fails the list; every read ends before the logout", async () => {
    const standin = await standinWith(60, 10);
    standin.faults.fail("/api/query", 500, { nth: 4, times: 10 });
    // Slow disks: reads still on the wire when the page fails outlast the edge gateway read.
    standin.faults.delay("/api/vApp/**/virtualHardwareSection/disks", 150);
    const list = await readAll(standin);
    expect(list.status).toBe("failed");
    expect(reasonOf(list)).toMatch(/^VM query: /);
    const requests = standin.requests;
    // Sections of the first pages were on their way when page 4 failed.
    expect(requests.some((r) => isSection(r.path))).toBe(true);
    expect(requests.at(-1)?.method).toBe("DELETE");
    expect(requests.filter((r) => r.status === 401 || r.status === 0)).toEqual([]);
    expect(standin.openSessions).toBe(0);
  });

  it("a section failing while pages still come in fails the list, naming the VM", async () => {
    const standin = await standinWith(60, 10);
    standin.faults.fail("/api/vApp/**/networkConnectionSection/", 500, { nth: 3 });
    const list = await readAll(standin);
    expect(list.status).toBe("failed");
    expect(reasonOf(list)).toMatch(/^VM .+ \(urn:vcloud:vm:.+\): /);
    expect(standin.requests.at(-1)?.method).toBe("DELETE");
    expect(standin.openSessions).toBe(0);
  });
});
