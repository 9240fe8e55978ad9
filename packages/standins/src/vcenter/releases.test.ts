// vCenter 7.0.3 and 8.0.3 as stand-in modes: 7.0.3 answers only what the recorded 7.0.3 schema
// allows; 8.0.3 adds the sourced differences; the in-process stand-in answers like the HTTPS one.
import { describe, expect, it } from "vitest";
import { closedAfterEach } from "../testing/closed-after-each.ts";
import { createInProcessVcenter, type InProcessVcenter } from "../testing/in-process-vcenter.ts";
import { createVcenterStandin } from "../testing/standins.ts";
import { vcenterCall, vcenterLogin, vsphereFixture } from "../testing/vcenter-client.ts";
import { vcenterVm } from "./builders.ts";
import { DEMO_VCENTER_IDS as ids } from "./demo-vcenter.ts";
import { generateVcenter } from "./generator.ts";
import { VcenterModel } from "./model.ts";
import { type VcenterRelease, vcenterReleaseTraits } from "./releases.ts";

type Json = Record<string, unknown>;
interface SchemaDef {
  enum?: string[];
  properties?: Record<string, unknown>;
}
const schema = vsphereFixture("schema/vsphere-7.0.3-selected.json") as {
  definitions: Record<string, SchemaDef>;
};
const enumOf = (name: string) => schema.definitions[name]?.enum ?? [];
const propertiesOf = (name: string) => Object.keys(schema.definitions[name]?.properties ?? {});

const start = closedAfterEach(createVcenterStandin);

/** Every VM.Info a stand-in of this release serves for a generated inventory of it. */
async function served(release: VcenterRelease): Promise<Json[]> {
  const model = generateVcenter({ vms: 60, seed: 11, release });
  const standin = await start({ model, release });
  expect(standin.release).toBe(release);
  const token = await vcenterLogin(standin);
  const infos: Json[] = [];
  for (const vm of model.vms) {
    const answer = await vcenterCall(standin, `/api/vcenter/vm/${vm.id}`, token);
    infos.push(JSON.parse(answer.body) as Json);
  }
  return infos;
}

const hardwareOf = (info: Json) => (info.hardware as Json).version as string;
const nicsOf = (info: Json) => Object.values(info.nics as Record<string, Json>);
const disksOf = (info: Json) => Object.values(info.disks as Record<string, Json>);

describe("the release traits agree with their sources", () => {
  it("7.0.3 knows exactly the hardware versions of the 7.0.3 schema; 8.0.3 adds VMX_20/21", () => {
    expect(vcenterReleaseTraits("7.0.3").hardwareVersions).toEqual(
      enumOf("VcenterVmHardwareVersion"),
    );
    expect(vcenterReleaseTraits("8.0.3").hardwareVersions.slice(-2)).toEqual(["VMX_20", "VMX_21"]);
  });

  it("the guest OS values 8.0 added are not in the 7.0.3 enum", () => {
    const known7 = new Set(enumOf("VcenterVmGuestOS"));
    const added = vcenterReleaseTraits("8.0.3").addedGuestOs;
    expect(added.length).toBeGreaterThan(0);
    expect(added.filter((os) => known7.has(os))).toEqual([]);
  });
});

describe("vCenter 7.0.3", () => {
  it("serves only enum values and NIC fields the 7.0.3 schema has", async () => {
    const infos = await served("7.0.3");
    const guestOs = new Set(enumOf("VcenterVmGuestOS"));
    const hardware = new Set(enumOf("VcenterVmHardwareVersion"));
    const buses = new Set(enumOf("VcenterVmHardwareDiskHostBusAdapterType"));
    const nicFields = new Set(propertiesOf("VcenterVmHardwareEthernetInfo"));
    const infoFields = new Set(propertiesOf("VcenterVMInfo"));
    for (const info of infos) {
      expect(guestOs.has(info.guest_OS as string), String(info.guest_OS)).toBe(true);
      expect(hardware.has(hardwareOf(info)), hardwareOf(info)).toBe(true);
      expect(Object.keys(info).filter((k) => !infoFields.has(k))).toEqual([]);
      for (const nic of nicsOf(info))
        expect(Object.keys(nic).filter((k) => !nicFields.has(k))).toEqual([]);
      for (const disk of disksOf(info)) expect(buses.has(disk.type as string)).toBe(true);
    }
    // NVMe disks exist on 7.0 too (vSphere API 7.0.0.1), with their controller listed.
    const nvme = infos.find((info) => disksOf(info).some((d) => d.type === "NVME"));
    expect(nvme?.nvme_adapters).toMatchObject({ "31000": { label: "NVMe controller 0", bus: 0 } });
  });

  it("refuses an inventory only a later release can hold, and passes values no release knows", async () => {
    const model = () =>
      new VcenterModel({
        datacenters: [{ id: "datacenter-1", name: "dc" }],
        clusters: [],
        hosts: [
          {
            id: "host-1",
            name: "esx",
            datacenterId: "datacenter-1",
            clusterId: null,
            connectionState: "CONNECTED",
          },
        ],
        folders: [{ id: "group-v1", name: "vms", datacenterId: "datacenter-1" }],
        vms: [],
      });
    const base = { name: "x", hostId: "host-1", folderId: "group-v1" };
    const hw21 = model();
    hw21.addVm(vcenterVm({ ...base, id: "vm-1", hardwareVersion: "VMX_21" }));
    await expect(createVcenterStandin({ model: hw21, release: "7.0.3" })).rejects.toThrow(
      /vm-1: vCenter 7.0.3 does not know hardware version VMX_21/,
    );
    const alma = model();
    alma.addVm(vcenterVm({ ...base, id: "vm-2", guestOs: "ALMALINUX_64" }));
    expect(() => createInProcessVcenter({ model: alma, release: "7.0.3" })).toThrow(/ALMALINUX_64/);
    const future = model();
    future.addVm(vcenterVm({ ...base, id: "vm-3", hardwareVersion: "VMX_99" }));
    expect(createInProcessVcenter({ model: future, release: "7.0.3" }).model.vms).toHaveLength(1);
  });
});

describe("vCenter 8.0.3", () => {
  it("serves 8.0 guest OS and hardware versions, and upt_v2_compatibility_enabled on NICs", async () => {
    const infos = await served("8.0.3");
    const known7 = new Set(enumOf("VcenterVmGuestOS"));
    expect(infos.some((info) => ["VMX_20", "VMX_21"].includes(hardwareOf(info)))).toBe(true);
    expect(infos.some((info) => !known7.has(info.guest_OS as string))).toBe(true);
    for (const info of infos) {
      for (const nic of nicsOf(info)) expect(nic.upt_v2_compatibility_enabled).toBe(false);
    }
  });
});

describe("a list past the cap", () => {
  it("is refused with 500, or cut at the cap when the stand-in imitates a server that cuts it", async () => {
    const standin = await start({ vmListCap: 4 });
    const token = await vcenterLogin(standin);
    expect((await vcenterCall(standin, "/api/vcenter/vm", token)).status).toBe(500);
    standin.settings.vmListCapStatus = 400;
    const refused = await vcenterCall(standin, "/api/vcenter/vm", token);
    // The vAPI runtimes' status for the same refusal, same body.
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ error_type: "UNABLE_TO_ALLOCATE_RESOURCE" });
    standin.settings.vmListCapStatus = undefined;
    standin.settings.cutsListAtCap = true;
    const cut = await vcenterCall(standin, "/api/vcenter/vm", token);
    expect(cut.status).toBe(200);
    expect(JSON.parse(cut.body)).toHaveLength(4);
  });
});

describe("the in-process stand-in", () => {
  const send = (vc: InProcessVcenter, path: string, headers: Record<string, string> = {}) =>
    vc.transport.request({ origin: vc.url, path, method: "GET", headers });

  async function text(vc: InProcessVcenter, path: string, token: string) {
    const answer = await send(vc, path, { "Vmware-Api-Session-Id": token });
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body) chunks.push(chunk as Buffer);
    return { status: answer.statusCode, body: Buffer.concat(chunks).toString("utf8") };
  }

  it("answers byte for byte what the HTTPS stand-in answers", async () => {
    const standin = await start();
    const vc = createInProcessVcenter();
    const login = await vc.transport.request({
      origin: vc.url,
      path: "/api/session",
      method: "POST",
      headers: { authorization: standin.basicAuth() },
    });
    expect(login.statusCode).toBe(201);
    const chunks: Buffer[] = [];
    for await (const chunk of login.body) chunks.push(chunk as Buffer);
    const token = JSON.parse(Buffer.concat(chunks).toString("utf8")) as string;
    const httpsToken = await vcenterLogin(standin);
    for (const path of ["/api/vcenter/vm", `/api/vcenter/vm/${ids.vmDb01}`, "/api/vcenter/host"]) {
      const https = await vcenterCall(standin, path, httpsToken);
      expect(await text(vc, path, token)).toEqual({ status: https.status, body: https.body });
    }
    expect(vc.openSessions).toBe(1);
    expect(vc.requests.map((r) => r.status)).toEqual([201, 200, 200, 200]);
  });

  it("fails a hung call as a headers timeout and a reset one as a reset, at once", async () => {
    const vc = createInProcessVcenter();
    vc.faults.hang("/api/vcenter/host");
    vc.faults.reset("/api/vcenter/cluster");
    await expect(send(vc, "/api/vcenter/host")).rejects.toMatchObject({
      code: "UND_ERR_HEADERS_TIMEOUT",
    });
    await expect(send(vc, "/api/vcenter/cluster")).rejects.toMatchObject({ code: "ECONNRESET" });
    // Without a session the handler answers 401, as vCenter does.
    expect((await send(vc, "/api/vcenter/datacenter")).statusCode).toBe(401);
  });

  it("rewrites an answer as the HTTPS stand-in would, and refuses a flood it cannot stream", async () => {
    const vc = createInProcessVcenter();
    vc.faults.add({
      path: "/api/vcenter/host",
      action: { kind: "rewrite", edit: (body) => `${body.slice(0, 1)}rewritten` },
    });
    vc.faults.add({
      path: "/api/vcenter/cluster",
      action: {
        kind: "flood",
        status: 200,
        bytes: 1e9,
        contentType: "application/json",
        declareLength: false,
        prefix: "[",
        unit: "0,",
        suffix: "0]",
      },
    });
    const answer = await send(vc, "/api/vcenter/host");
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body) chunks.push(chunk as Buffer);
    // Without a session the handler's answer is the 401 body; the switch edits it all the same.
    expect(Buffer.concat(chunks).toString("utf8")).toBe("{rewritten");
    await expect(send(vc, "/api/vcenter/cluster")).rejects.toThrow(/HTTPS stand-in/);
  });

  it("tells a test about each request as it arrives", async () => {
    const vc = createInProcessVcenter();
    const seen: string[] = [];
    vc.onRequest = (entry) => seen.push(`${entry.method} ${entry.path}`);
    await send(vc, "/api/vcenter/host");
    expect(seen).toEqual(["GET /api/vcenter/host"]);
  });
});
