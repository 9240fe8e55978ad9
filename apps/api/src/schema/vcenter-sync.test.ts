// vCenter end to end: vCenter stand-in (small VM list cap) → client → adapter → sync engine →
// database, through the API's services.
import {
  createVcenterStandin,
  DEFAULT_VCENTER_USERS,
  generateVcenter,
  type VcenterModel,
} from "@hyperlens/standins/testing";
import { describe, expect, it } from "vitest";
import { eachTestConnectedTo } from "../testing/standin-connections.ts";
import { itKeepsTheSessionRules } from "../testing/sync-rules.ts";

const user = DEFAULT_VCENTER_USERS[0];
if (!user) throw new Error("the stand-in has no user");

let model: VcenterModel;

const vcenter = eachTestConnectedTo("VCENTER", "vcenter", () => {
  model = generateVcenter({
    datacenters: 1,
    clustersPerDc: 1,
    hostsPerCluster: 3,
    vms: 60,
    seed: 7,
  });
  return createVcenterStandin({ model, vmListCap: 25 });
});
const { sync, stored } = vcenter;

describe("syncing vCenter", () => {
  it("reads every VM past the list cap, with NICs, hosts and places, and logs out", async () => {
    const result = await sync();
    expect(result.outcome).toBe("SUCCESS");
    const rows = await stored();
    expect(rows).toHaveLength(model.vms.length);
    expect(rows.every((r) => r.hostName !== null && r.clusterName !== null)).toBe(true);
    expect(rows.every((r) => r.datacenterName === "dc1")).toBe(true);
    const refused = vcenter.standin.requests.filter(
      (r) => r.path === "/api/vcenter/vm" && r.status === 500,
    );
    expect(refused.length).toBeGreaterThan(0);
    const withNics = await vcenter.services.prisma.nic.count({
      where: { vm: { connectionId: vcenter.connectionId } },
    });
    expect(withNics).toBeGreaterThan(0);
    expect(vcenter.standin.openSessions).toBe(0);
    const writes = vcenter.standin.requests.filter((r) => r.method !== "GET");
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/session",
      "DELETE /api/session",
    ]);
  });

  it("a failed part of the VM list removes nothing, and the session is still closed", async () => {
    await sync();
    model.removeVm(model.vms[0]?.id ?? "");
    // One host part that keeps failing past the retries (the guard, fewer than half present,
    // must not be what saves the VMs); the parts read beside it may take some of the 503s too.
    vcenter.standin.faults.fail("/api/vcenter/vm", 503, { nth: 3, times: 20 });
    const result = await sync();
    expect(result.outcome).not.toBe("SUCCESS");
    expect(result.counts.removed).toBe(0);
    expect(await stored()).toHaveLength(model.vms.length + 1);
    expect(vcenter.standin.openSessions).toBe(0);
  });

  it("reads every VM past the cap when vCenter refuses the list with 400, as the vAPI runtimes do", async () => {
    vcenter.standin.settings.vmListCapStatus = 400;
    const result = await sync();
    expect(result.outcome).toBe("SUCCESS");
    expect(await stored()).toHaveLength(model.vms.length);
    const refused = vcenter.standin.requests.filter(
      (r) => r.path === "/api/vcenter/vm" && r.status === 400,
    );
    expect(refused.length).toBeGreaterThan(0);
  });

  it("a transient 503 on the VM list is retried and the sync reads every VM", async () => {
    // Under the cap the whole list is one call: its 503 must be retried, not end the read.
    vcenter.standin.settings.vmListCap = 4000;
    vcenter.standin.faults.fail("/api/vcenter/vm", 503, { nth: 1, times: 1 });
    const result = await sync();
    expect(result.outcome).toBe("SUCCESS");
    expect(await stored()).toHaveLength(model.vms.length);
    const whole = vcenter.standin.requests.filter(
      (r) => r.path === "/api/vcenter/vm" && r.query === "",
    );
    expect(whole.map((r) => r.status)).toEqual([503, 200]);
  });

  it("a VM whose details fail removes nothing either", async () => {
    await sync();
    const [gone, broken] = model.vms;
    model.removeVm(gone?.id ?? "");
    vcenter.standin.faults.fail(`/api/vcenter/vm/${broken?.id ?? ""}`, 500, { times: 20 });
    const result = await sync();
    expect(result.counts.removed).toBe(0);
    expect(await stored()).toHaveLength(model.vms.length + 1);
    expect(vcenter.standin.openSessions).toBe(0);
  });

  itKeepsTheSessionRules(vcenter, {
    guests: () => model.vms.map((vm) => vm.id),
    remove: (id) => model.removeVm(id),
    password: user.password,
    unreachable: "Could not reach the vCenter server",
  });

  it("Tools stopping keeps the last-known IPs instead of erasing them", async () => {
    const running = model.vms.find((vm) => vm.powerState === "POWERED_ON" && vm.isToolsRunning);
    if (!running) throw new Error("no running VM");
    await sync();
    const ipsOf = async () =>
      vcenter.services.prisma.ipAddress.findMany({
        where: {
          vm: { connectionId: vcenter.connectionId, externalId: running.id },
          isAccepted: true,
        },
      });
    const before = await ipsOf();
    expect(before.length).toBeGreaterThan(0);
    model.setTools(running.id, false);
    expect((await sync()).outcome).toBe("SUCCESS");
    expect((await ipsOf()).map((ip) => ip.address)).toEqual(before.map((ip) => ip.address));
  });
});
