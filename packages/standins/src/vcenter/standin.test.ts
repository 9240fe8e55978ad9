import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, shapeOf } from "../testing/https-client.ts";
import { vcenterCall, vcenterLogin, vsphereFixture } from "../testing/vcenter-client.ts";
import { DEMO_VCENTER_IDS as ids } from "./demo-vcenter.ts";
import { generateVcenter } from "./generator.ts";
import { createVcenterStandin, type VcenterStandin } from "./server.ts";

type Json = Record<string, unknown>;

let standin: VcenterStandin;
let token: string;
beforeEach(async () => {
  standin = await createVcenterStandin();
  token = await vcenterLogin(standin);
});
afterEach(async () => {
  await standin.close();
});

async function json(path: string): Promise<unknown> {
  const response = await vcenterCall(standin, path, token);
  expect(response.status, `${path}: ${response.body}`).toBe(200);
  return JSON.parse(response.body);
}

const morefs = (rows: unknown) => (rows as Json[]).map((r) => r.vm);

describe("session", () => {
  it("logs in with Basic, answers 201 with the token as a bare JSON string", async () => {
    const response = await call(`${standin.url}/api/session`, {
      method: "POST",
      headers: { authorization: standin.basicAuth() },
      ca: standin.caPem,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it("refuses a wrong password and a missing session header in vSphere's error shape", async () => {
    const bad = await call(`${standin.url}/api/session`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from("hyperlens@vsphere.local:nope").toString("base64")}`,
      },
      ca: standin.caPem,
    });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.body)).toEqual(vsphereFixture("session/POST.401.json"));
    const anonymous = await call(`${standin.url}/api/vcenter/vm`, { ca: standin.caPem });
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body).error_type).toBe("UNAUTHENTICATED");
  });

  it("counts open sessions, closes one on DELETE and expires all on demand", async () => {
    expect(standin.openSessions).toBe(1);
    const other = await vcenterLogin(standin);
    expect(standin.openSessions).toBe(2);
    expect((await vcenterCall(standin, "/api/session", other, "DELETE")).status).toBe(204);
    expect(standin.openSessions).toBe(1);
    expect((await vcenterCall(standin, "/api/vcenter/vm", other)).status).toBe(401);
    standin.expireAllSessions();
    expect(standin.openSessions).toBe(0);
    expect((await vcenterCall(standin, "/api/vcenter/vm", token)).status).toBe(401);
  });

  it("refuses and records every write except the session calls", async () => {
    const answer = await vcenterCall(
      standin,
      `/api/vcenter/vm/${ids.vmWeb01}/power`,
      token,
      "POST",
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).error_type).toBe("UNAUTHORIZED");
    expect(standin.writeAttempts).toEqual([
      { method: "POST", path: `/api/vcenter/vm/${ids.vmWeb01}/power`, status: 403 },
    ]);
    await vcenterCall(standin, "/api/session", token, "DELETE");
    expect(standin.writeAttempts).toHaveLength(1);
  });
});

describe("answers have the recorded shapes (fixtures/vsphere)", () => {
  it("VM list rows, VM.Info with keyed nics/disks, hosts, clusters", async () => {
    // The recordings come from a vCenter 7: vCenter 8 adds a NIC field (releases.test.ts).
    await standin.close();
    standin = await createVcenterStandin({ release: "7.0.3" });
    token = await vcenterLogin(standin);
    const recordedRow = (vsphereFixture("vcenter_vm/GET.200.list.json") as Json[])[0];
    const rows = (await json("/api/vcenter/vm")) as Json[];
    expect(shapeOf(rows[0])).toEqual(shapeOf(recordedRow));
    const recorded = vsphereFixture("vcenter_vm/GET.200.vm-1049.json") as Json;
    const info = (await json(`/api/vcenter/vm/${ids.vmTest}`)) as Json;
    expect(shapeOf(info)).toEqual(shapeOf(recorded));
    const recordedNic = Object.values(recorded.nics as Json)[0];
    expect(shapeOf(Object.values(info.nics as Json)[0])).toEqual(shapeOf(recordedNic));
    expect(Object.keys(info.disks as Json)).toEqual(["2000", "2001"]);
    const hosts = (await json("/api/vcenter/host")) as Json[];
    const recordedHosts = vsphereFixture("vcenter_host/GET.200.json") as Json[];
    expect(shapeOf(hosts[0])).toEqual(shapeOf(recordedHosts[0]));
    expect(shapeOf(hosts.find((h) => h.connection_state === "NOT_RESPONDING"))).toEqual(
      shapeOf(recordedHosts[1]),
    );
    const clusters = (await json("/api/vcenter/cluster")) as Json[];
    expect(shapeOf(clusters[0])).toEqual(
      shapeOf((vsphereFixture("vcenter_cluster/GET.200.json") as Json[])[0]),
    );
  });

  it("guest interfaces: nic key only on virtual NICs, MACs as the guest wrote them", async () => {
    const ifaces = (await json(
      `/api/vcenter/vm/${ids.vmWeb01}/guest/networking/interfaces`,
    )) as Json[];
    expect(ifaces[0]?.nic).toBe("4000");
    expect(ifaces[0]?.mac_address).toBe("00:50:56:B1:33:76");
    expect(ifaces[1]).not.toHaveProperty("nic");
    const recorded = (
      vsphereFixture("vcenter_vm_guest_networking_interfaces/GET.200.json") as Json[]
    )[0];
    expect(Object.keys(ifaces[0] ?? {}).sort()).toEqual(
      Object.keys(recorded ?? {})
        .filter((k) => k !== "dns")
        .sort(),
    );
  });

  it("503 SERVICE_UNAVAILABLE when Tools are not running or the VM is off", async () => {
    for (const vm of [ids.vmBuild01, ids.vmTest]) {
      const answer = await vcenterCall(
        standin,
        `/api/vcenter/vm/${vm}/guest/networking/interfaces`,
        token,
      );
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toEqual(
        vsphereFixture("vcenter_vm_guest_networking_interfaces/GET.503.tools-not-running.json"),
      );
    }
    standin.model.setTools(ids.vmBuild01, true);
    await json(`/api/vcenter/vm/${ids.vmBuild01}/guest/networking/interfaces`);
  });

  it("an unknown VM is 404 NOT_FOUND in vSphere's shape", async () => {
    const answer = await vcenterCall(standin, "/api/vcenter/vm/vm-9999", token);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).error_type).toBe("NOT_FOUND");
  });
});

describe("the VM list", () => {
  it("honours the hosts, clusters, datacenters, folders and power_states filters", async () => {
    expect(morefs(await json(`/api/vcenter/vm?hosts=${ids.esxi1}`))).toEqual([
      ids.vmWeb01,
      ids.vmTest,
      ids.vmVcls,
    ]);
    expect(
      morefs(await json(`/api/vcenter/vm?hosts=${ids.esxi1}&hosts=${ids.esxiStandalone}`)),
    ).toHaveLength(4);
    expect(morefs(await json(`/api/vcenter/vm?clusters=${ids.cluster}`))).not.toContain(
      ids.vmWin01,
    );
    expect(morefs(await json(`/api/vcenter/vm?datacenters=${ids.datacenter}`))).toHaveLength(6);
    expect(morefs(await json(`/api/vcenter/vm?folders=${ids.folderProd}`))).toEqual([
      ids.vmWeb01,
      ids.vmDb01,
      ids.vmWin01,
    ]);
    expect(morefs(await json("/api/vcenter/vm?power_states=POWERED_OFF"))).toEqual([ids.vmTest]);
    expect((await vcenterCall(standin, "/api/vcenter/vm?power_states=OFF", token)).status).toBe(
      400,
    );
  });

  it("answers 500 UNABLE_TO_ALLOCATE_RESOURCE past the cap, and exactly the cap is fine", async () => {
    standin.settings.vmListCap = 5;
    const refused = await vcenterCall(standin, "/api/vcenter/vm", token);
    expect(refused.status).toBe(500);
    const body = JSON.parse(refused.body);
    expect(body.error_type).toBe("UNABLE_TO_ALLOCATE_RESOURCE");
    expect(body.messages[0].args).toEqual(["5"]);
    standin.settings.vmListCap = 6;
    expect(morefs(await json("/api/vcenter/vm"))).toHaveLength(6);
  });

  it("follows the model: move, power, remove, add", async () => {
    standin.model.moveVm(ids.vmWeb01, ids.esxi2);
    expect(morefs(await json(`/api/vcenter/vm?hosts=${ids.esxi2}`))).toContain(ids.vmWeb01);
    standin.model.setPower(ids.vmWeb01, "POWERED_OFF");
    expect(morefs(await json("/api/vcenter/vm?power_states=POWERED_OFF"))).toContain(ids.vmWeb01);
    standin.model.removeVm(ids.vmWeb01);
    expect((await vcenterCall(standin, `/api/vcenter/vm/${ids.vmWeb01}`, token)).status).toBe(404);
  });

  it("hosts, clusters, datacenters and folders honour their filters", async () => {
    const inCluster = (await json(`/api/vcenter/host?clusters=${ids.cluster}`)) as Json[];
    expect(inCluster.map((h) => h.host)).toEqual([ids.esxi1, ids.esxi2]);
    expect(((await json(`/api/vcenter/host?datacenters=${ids.datacenter}`)) as Json[]).length).toBe(
      4,
    );
    expect(await json("/api/vcenter/datacenter")).toEqual([
      { name: "Lab", datacenter: ids.datacenter },
    ]);
    expect(((await json("/api/vcenter/folder?type=VIRTUAL_MACHINE")) as Json[]).length).toBe(2);
  });
});

describe("generateVcenter", () => {
  it("builds 10,000 VMs quickly and deterministically", () => {
    const started = performance.now();
    const big = generateVcenter({
      datacenters: 2,
      clustersPerDc: 3,
      hostsPerCluster: 5,
      vms: 10_000,
      seed: 3,
    });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(big.vms).toHaveLength(10_000);
    expect(big.hosts).toHaveLength(30);
    expect(new Set(big.vms.map((v) => v.id)).size).toBe(10_000);
    const again = generateVcenter({
      datacenters: 2,
      clustersPerDc: 3,
      hostsPerCluster: 5,
      vms: 10_000,
      seed: 3,
    });
    expect(again.vms[1234]).toEqual(big.vms[1234]);
    const extras = big.vms.flatMap((v) => v.guestInterfaces).filter((i) => i.nicKey === null);
    expect(extras.length).toBeGreaterThan(0);
    expect(big.vms.some((v) => v.guestInterfaces.some((i) => /[A-F]/.test(i.mac)))).toBe(true);
    expect(big.vms.some((v) => v.powerState === "POWERED_OFF")).toBe(true);
  });
});
