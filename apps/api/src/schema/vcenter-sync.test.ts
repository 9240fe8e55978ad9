// vCenter end to end: vCenter stand-in (small VM list cap) → client → adapter → sync engine →
// database, through the API's services.
import {
  createVcenterStandin,
  DEFAULT_VCENTER_USERS,
  generateVcenter,
  type VcenterModel,
  type VcenterStandin,
} from "@hyperlens/standins";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { syncConnection, testConnection } from "../services/connection-runner.ts";
import { saveConnection } from "../services/connections.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const user = DEFAULT_VCENTER_USERS[0];
if (!user) throw new Error("the stand-in has no user");

let app: TestApp;
let standin: VcenterStandin;
let model: VcenterModel;
let connectionId: string;

beforeEach(async () => {
  app = await startTestApp();
  model = generateVcenter({
    datacenters: 1,
    clustersPerDc: 1,
    hostsPerCluster: 3,
    vms: 60,
    seed: 7,
  });
  standin = await createVcenterStandin({ model, vmListCap: 25 });
  const connection = await saveConnection(
    app.services.prisma,
    app.services.secrets,
    "VCENTER",
    {
      name: "vcenter",
      url: standin.url,
      caPem: standin.caPem,
      username: user.user,
      secret: user.password,
    },
    null,
  );
  connectionId = connection.id;
});

afterEach(async () => {
  await standin?.close();
  await app?.close();
});

const sync = () => syncConnection(app.services, connectionId, { trigger: "MANUAL" }).done;
const stored = () =>
  app.services.prisma.virtualMachine.findMany({ where: { connectionId, removedAt: null } });

describe("syncing vCenter", () => {
  it("reads every VM past the list cap, with NICs, hosts and places, and logs out", async () => {
    const result = await sync();
    expect(result.outcome).toBe("SUCCESS");
    const rows = await stored();
    expect(rows).toHaveLength(model.vms.length);
    expect(rows.every((r) => r.hostName !== null && r.clusterName !== null)).toBe(true);
    expect(rows.every((r) => r.datacenterName === "dc1")).toBe(true);
    const refused = standin.requests.filter(
      (r) => r.path === "/api/vcenter/vm" && r.status === 500,
    );
    expect(refused.length).toBeGreaterThan(0);
    const withNics = await app.services.prisma.nic.count({ where: { vm: { connectionId } } });
    expect(withNics).toBeGreaterThan(0);
    expect(standin.openSessions).toBe(0);
    const writes = standin.requests.filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/session",
      "DELETE /api/session",
    ]);
  });

  it("a failed part of the VM list removes nothing, and the session is still closed", async () => {
    await sync();
    model.removeVm(model.vms[0]?.id ?? "");
    // One host part only: the guard (fewer than half present) must not be what saves the VMs.
    standin.faults.fail("/api/vcenter/vm", 503, { nth: 3, times: 1 });
    const result = await sync();
    expect(result.outcome).not.toBe("SUCCESS");
    expect(result.counts.removed).toBe(0);
    expect(await stored()).toHaveLength(model.vms.length + 1);
    expect(standin.openSessions).toBe(0);
  });

  it("a VM whose details fail removes nothing either", async () => {
    await sync();
    const [gone, broken] = model.vms;
    model.removeVm(gone?.id ?? "");
    standin.faults.fail(`/api/vcenter/vm/${broken?.id ?? ""}`, 500, { times: 20 });
    const result = await sync();
    expect(result.counts.removed).toBe(0);
    expect(await stored()).toHaveLength(model.vms.length + 1);
    expect(standin.openSessions).toBe(0);
  });

  it("removes a VM that is gone after a complete read, and the guard holds when most vanish", async () => {
    await sync();
    model.removeVm(model.vms[0]?.id ?? "");
    expect((await sync()).counts.removed).toBe(1);
    for (const vm of model.vms.slice(0, -5)) model.removeVm(vm.id);
    const guarded = await sync();
    expect(guarded.guardFired).toBe(true);
    expect(guarded.counts.removed).toBe(0);
  });

  it("Test logs in and out and never shows or logs the password", async () => {
    const result = await testConnection(app.services, connectionId);
    expect(result.ok).toBe(true);
    expect(standin.openSessions).toBe(0);
    await sync();
    expect(standin.openSessions).toBe(0);
    expect(app.logLines.join("\n")).not.toContain(user.password);
    expect(JSON.stringify(result)).not.toContain(user.password);
  });

  it("Test names an unreachable server as unreachable", async () => {
    await app.services.prisma.connection.update({
      where: { id: connectionId },
      data: { baseUrl: "https://vcenter.invalid" },
    });
    const result = await testConnection(app.services, connectionId);
    expect(result).toMatchObject({ ok: false, errorClass: "unreachable" });
    expect(result.message).toContain("Could not reach the vCenter server");
  });

  it("Tools stopping keeps the last-known IPs instead of erasing them", async () => {
    const running = model.vms.find((vm) => vm.powerState === "POWERED_ON" && vm.isToolsRunning);
    if (!running) throw new Error("no running VM");
    await sync();
    const ipsOf = async () =>
      app.services.prisma.ipAddress.findMany({
        where: { vm: { connectionId, externalId: running.id }, isAccepted: true },
      });
    const before = await ipsOf();
    expect(before.length).toBeGreaterThan(0);
    model.setTools(running.id, false);
    expect((await sync()).outcome).toBe("SUCCESS");
    expect((await ipsOf()).map((ip) => ip.address)).toEqual(before.map((ip) => ip.address));
  });
});
