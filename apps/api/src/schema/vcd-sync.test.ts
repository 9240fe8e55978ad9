// Cloud Director end to end: Director stand-in (capped pages, unusual namespace prefixes) →
// client → adapter → sync engine → database, through the API's services.
import {
  createVcdStandin,
  DEFAULT_VCD_USERS,
  type DirectorModel,
  generateDirector,
} from "@hyperlens/standins/testing";
import { describe, expect, it } from "vitest";
import { eachTestConnectedTo } from "../testing/standin-connections.ts";
import { itKeepsTheSessionRules } from "../testing/sync-rules.ts";

const provider = DEFAULT_VCD_USERS.find((u) => u.role === "provider");
if (!provider) throw new Error("the stand-in has no provider user");

let model: DirectorModel;

const director = eachTestConnectedTo("VCD", "director", () => {
  model = generateDirector({ orgs: 2, vdcsPerOrg: 2, vms: 60, edgeGateways: 7, seed: 7 });
  return createVcdStandin({ model, maxPageSize: 25, edgeGatewayMaxPageSize: 3 });
});
const { sync, stored } = director;
const realVms = () => model.vms.filter((vm) => !model.vapp(vm.vappId)?.template);

describe("syncing Cloud Director", () => {
  it("reads every VM past the server's own page cap, with NICs and disks, and logs out", async () => {
    const result = await sync();
    expect(result.outcome).toBe("SUCCESS");
    const rows = await stored();
    expect(rows).toHaveLength(realVms().length);
    const queries = director.standin.requests.filter((r) => r.path === "/api/query");
    expect(queries.length).toBeGreaterThanOrEqual(Math.ceil(model.vms.length / 25));
    const withNics = await director.services.prisma.nic.count({
      where: { vm: { connectionId: director.connectionId } },
    });
    expect(withNics).toBeGreaterThan(0);
    expect(rows.every((r) => r.orgName !== null || r.vdcName !== null)).toBe(true);
    expect(director.standin.openSessions).toBe(0);
  });

  it("a failed page removes nothing, and the session is still closed", async () => {
    await sync();
    model.removeVm(realVms()[0]?.id ?? "");
    director.standin.faults.fail("/api/query", 503, { nth: 2, times: 10 });
    const result = await sync();
    expect(result.outcome).not.toBe("SUCCESS");
    expect(result.counts.removed).toBe(0);
    expect(await stored()).toHaveLength(realVms().length + 1);
    expect(director.standin.openSessions).toBe(0);
  });

  it("reads edge gateways across pages and removes one only after a complete read", async () => {
    await sync();
    const gateways = () =>
      director.services.prisma.edgeGateway.findMany({
        where: { connectionId: director.connectionId, removedAt: null },
      });
    expect(await gateways()).toHaveLength(7);
    expect((await gateways()).some((g) => g.ownerType === "VDC_GROUP")).toBe(true);
    const doomed = model.edgeGateways[0]?.id ?? "";
    model.removeEdgeGateway(doomed);
    director.standin.faults.fail("/cloudapi/1.0.0/edgeGateways", 500, { nth: 2, times: 10 });
    await sync();
    expect(await gateways()).toHaveLength(7);
    director.standin.faults.clear();
    await sync();
    expect(await gateways()).toHaveLength(6);
  });

  itKeepsTheSessionRules(director, {
    guests: () => realVms().map((vm) => vm.id),
    remove: (id) => model.removeVm(id),
    password: provider.password,
    unreachable: "Could not reach the Cloud Director server",
  });

  it("reads answers in the real namespace prefixes as well", async () => {
    director.standin.settings.namespaces = "real";
    const result = await sync();
    expect(result.outcome).toBe("SUCCESS");
    expect(await stored()).toHaveLength(realVms().length);
  });
});
