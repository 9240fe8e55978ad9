// The compatibility matrix of docs/operations.md, one row per test: each supported release is a
// stand-in mode, synced end to end through the API's services (test, sync, logout, no writes).
import type { ConnectionKind } from "@hyperlens/shared";
import {
  createProxmoxStandin,
  createVcdStandin,
  createVcenterStandin,
  DEFAULT_TOKEN,
  generateDirector,
  generateVcenter,
  lxcGuest,
  type PveVersion,
  proxmoxNode,
  qemuGuest,
  VCENTER_RELEASES,
  type VcenterRelease,
  vcenterReleaseTraits,
} from "@hyperlens/standins/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testConnection } from "../services/connection-test.ts";
import { syncConnection } from "../syncs/coordinator.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

let app: TestApp;
let closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  app = await startTestApp();
  closers = [];
});

afterEach(async () => {
  for (const close of closers) await close();
  await app?.close();
});

const activeVms = (connectionId: string) =>
  app.services.prisma.virtualMachine.findMany({
    where: { connectionId, removedAt: null },
    include: { ips: true },
  });

/**
 * Connects to `standin` (closed after the test): Test must pass (then `afterTest` checks what it
 * left behind), and a manual sync succeed. Returns the connection's id.
 */
async function connectTestAndSync(
  kind: ConnectionKind,
  standin: { url: string; caPem: string; close(): Promise<void> },
  name: string,
  afterTest?: () => void,
): Promise<string> {
  closers.push(() => standin.close());
  const { id } = await saveStandinConnection(app.services, kind, standin, name);
  expect(await testConnection(app.services, id)).toMatchObject({ ok: true });
  afterTest?.();
  const result = await syncConnection(app.services, id, { trigger: "MANUAL" }).done;
  expect(result.outcome).toBe("SUCCESS");
  return id;
}

describe.each<PveVersion>(["7.4", "8.4", "9.1"])("Proxmox VE %s", (version) => {
  it("tests, then syncs VMs and containers with guest-agent and container IPs", async () => {
    const standin = await createProxmoxStandin({
      version,
      cluster: {
        name: "lab",
        nodes: [proxmoxNode({ name: "pve1" }, 0)],
        guests: [
          qemuGuest({
            vmid: 100,
            name: "web",
            node: "pve1",
            nics: [{ mac: "BC:24:11:00:00:01" }],
          }),
          lxcGuest({
            vmid: 200,
            name: "ct",
            node: "pve1",
            nics: [{ mac: "BC:24:11:CC:00:01", ip: "10.0.3.1/24" }],
          }),
        ],
      },
      // Stands in for PVEAuditor plus the release's agent privilege (docs/permissions.md): the
      // stand-in's auditor role lacks the agent privilege before 9.x.
      tokens: [{ ...DEFAULT_TOKEN, role: "admin" }],
    });
    const id = await connectTestAndSync("PROXMOX", standin, `pve-${version}`);
    const vms = await activeVms(id);
    expect(vms.map((vm) => vm.name).sort()).toEqual(["ct", "web"]);
    const container = vms.find((vm) => vm.name === "ct");
    expect(container?.ips.map((ip) => ip.address)).toContain("10.0.3.1");
    const web = vms.find((vm) => vm.name === "web");
    expect(web?.ips.length).toBeGreaterThan(0);
    expect(standin.requests.every((r) => r.method === "GET")).toBe(true);
  });
});

describe.each([
  { release: "10.4", min: "37.0", max: "37.3" },
  { release: "10.5", min: "37.0", max: "38.1" },
  { release: "10.6", min: "37.0", max: "39.1" },
  { release: "10.6 (39.x only)", min: "39.0", max: "39.1" },
])("Cloud Director $release (API $min–$max)", ({ min, max }) => {
  it("negotiates an API version it offers, syncs every VM and logs out", async () => {
    const model = generateDirector({ orgs: 1, vdcsPerOrg: 1, vms: 12, edgeGateways: 2, seed: 5 });
    const standin = await createVcdStandin({ model, apiVersions: { min, max } });
    const id = await connectTestAndSync("VCD", standin, `director-${max}`);
    const real = model.vms.filter((vm) => !model.vapp(vm.vappId)?.template);
    expect(await activeVms(id)).toHaveLength(real.length);
    // The client asks for 38.x first and, on 406, picks the best version /api/versions lists; the
    // stand-in answers 406 outside its range, so inventory reads that all succeed prove the pick.
    const reads = standin.requests.filter((r) => r.path.startsWith("/api/query"));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.status === 200)).toBe(true);
    expect(standin.openSessions).toBe(0);
  });
});

describe.each<VcenterRelease>(VCENTER_RELEASES)("vCenter %s", (release) => {
  it("tests, syncs every VM with its release's guest OS and hardware version, and logs out", async () => {
    const model = generateVcenter({
      datacenters: 1,
      clustersPerDc: 1,
      hostsPerCluster: 2,
      vms: 24,
      seed: 8,
      release,
    });
    const standin = await createVcenterStandin({ model, release, vmListCap: 10 });
    const id = await connectTestAndSync("VCENTER", standin, `vcenter-${release}`, () =>
      expect(standin.openSessions, "Test logs out").toBe(0),
    );
    const vms = await activeVms(id);
    expect(vms.map((vm) => vm.externalId).sort()).toEqual(model.vms.map((vm) => vm.id).sort());
    // 8.0 guest OS ids and VMX_20/21 are stored as served; 7.0.3 serves none of them.
    const added = new Set(vcenterReleaseTraits("8.0.3").addedGuestOs);
    const newer = vms.filter((vm) => added.has(vm.guestOs ?? ""));
    const hardware = vms.map(
      (vm) => (vm.details as { vcenter?: { hardwareVersion?: string } }).vcenter?.hardwareVersion,
    );
    if (release === "8.0.3") {
      expect(newer.length).toBeGreaterThan(0);
      expect(hardware).toContain("VMX_21");
    } else {
      expect(newer).toEqual([]);
      expect(hardware.filter((v) => v === "VMX_20" || v === "VMX_21")).toEqual([]);
    }
    // The 10-VM cap answered 500 and the list was split by host.
    expect(standin.requests.some((r) => r.path === "/api/vcenter/vm" && r.status === 500)).toBe(
      true,
    );
    expect(standin.requests.every((r) => r.path.startsWith("/api/"))).toBe(true);
    expect(standin.writeAttempts).toEqual([]);
    expect(standin.openSessions).toBe(0);
  });
});
