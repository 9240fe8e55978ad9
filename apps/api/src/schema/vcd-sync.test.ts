// Cloud Director end to end: Director stand-in (capped pages, unusual namespace prefixes) →
// client → adapter → sync engine → database, through the API's services.
import {
  createVcdStandin,
  DEFAULT_VCD_USERS,
  type DirectorModel,
  generateDirector,
  type VcdStandin,
} from "@hyperlens/standins";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { syncConnection, testConnection } from "../services/connection-runner.ts";
import { saveConnection } from "../services/connections.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const provider = DEFAULT_VCD_USERS.find((u) => u.role === "provider");
if (!provider) throw new Error("the stand-in has no provider user");

let app: TestApp;
let standin: VcdStandin;
let model: DirectorModel;
let connectionId: string;

const realVms = () => model.vms.filter((vm) => !model.vapp(vm.vappId)?.template);

beforeEach(async () => {
  app = await startTestApp();
  model = generateDirector({ orgs: 2, vdcsPerOrg: 2, vms: 60, edgeGateways: 7, seed: 7 });
  standin = await createVcdStandin({ model, maxPageSize: 25, edgeGatewayMaxPageSize: 3 });
  const connection = await saveConnection(
    app.services.prisma,
    app.services.secrets,
    "VCD",
    {
      name: "director",
      url: standin.url,
      caPem: standin.caPem,
      username: `${provider.user}@${provider.org}`,
      secret: provider.password,
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

describe("syncing Cloud Director", () => {
  it("reads every VM past the server's own page cap, with NICs and disks, and logs out", async () => {
    const result = await sync();
    expect(result.outcome).toBe("SUCCESS");
    const rows = await stored();
    expect(rows).toHaveLength(realVms().length);
    const queries = standin.requests.filter((r) => r.path === "/api/query");
    expect(queries.length).toBeGreaterThanOrEqual(Math.ceil(model.vms.length / 25));
    const withNics = await app.services.prisma.nic.count({ where: { vm: { connectionId } } });
    expect(withNics).toBeGreaterThan(0);
    expect(rows.every((r) => r.orgName !== null || r.vdcName !== null)).toBe(true);
    expect(standin.openSessions).toBe(0);
  });

  it("a failed page removes nothing, and the session is still closed", async () => {
    await sync();
    model.removeVm(realVms()[0]?.id ?? "");
    standin.faults.fail("/api/query", 503, { nth: 2, times: 10 });
    const result = await sync();
    expect(result.outcome).not.toBe("SUCCESS");
    expect(result.counts.removed).toBe(0);
    expect(await stored()).toHaveLength(realVms().length + 1);
    expect(standin.openSessions).toBe(0);
  });

  it("reads edge gateways across pages and removes one only after a complete read", async () => {
    await sync();
    const gateways = () =>
      app.services.prisma.edgeGateway.findMany({ where: { connectionId, removedAt: null } });
    expect(await gateways()).toHaveLength(7);
    expect((await gateways()).some((g) => g.ownerType === "VDC_GROUP")).toBe(true);
    const doomed = model.edgeGateways[0]?.id ?? "";
    model.removeEdgeGateway(doomed);
    standin.faults.fail("/cloudapi/1.0.0/edgeGateways", 500, { nth: 2, times: 10 });
    await sync();
    expect(await gateways()).toHaveLength(7);
    standin.faults.clear();
    await sync();
    expect(await gateways()).toHaveLength(6);
  });

  it("removes a VM that is gone after a complete read, and the guard holds when most vanish", async () => {
    await sync();
    model.removeVm(realVms()[0]?.id ?? "");
    expect((await sync()).counts.removed).toBe(1);
    for (const vm of realVms().slice(0, -5)) model.removeVm(vm.id);
    const guarded = await sync();
    expect(guarded.guardFired).toBe(true);
    expect(guarded.counts.removed).toBe(0);
  });

  it("Test logs in and out and never shows or logs the password", async () => {
    const result = await testConnection(app.services, connectionId);
    expect(result.ok).toBe(true);
    expect(standin.openSessions).toBe(0);
    await sync();
    expect(app.logLines.join("\n")).not.toContain(provider.password);
  });

  it("Test names an unreachable server as unreachable", async () => {
    await app.services.prisma.connection.update({
      where: { id: connectionId },
      data: { baseUrl: "https://vcd.invalid" },
    });
    const result = await testConnection(app.services, connectionId);
    expect(result).toMatchObject({ ok: false, errorClass: "unreachable" });
    expect(result.message).toContain("Could not reach the Cloud Director server");
  });

  it("reads answers in the real namespace prefixes as well", async () => {
    standin.settings.namespaces = "real";
    const result = await sync();
    expect(result.outcome).toBe("SUCCESS");
    expect(await stored()).toHaveLength(realVms().length);
  });
});
