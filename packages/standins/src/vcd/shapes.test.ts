import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, header, shapeOf } from "../testing/https-client.ts";
import { vcdGet, vcdLogin } from "../testing/vcd-client.ts";
import { vcdFixtureHttp, vcdFixtureText } from "../testing/vcd-fixtures.ts";
import { childrenNamed, parseXml, type XmlElement } from "../testing/xml.ts";
import { DEMO_IDS } from "./demo-director.ts";
import { NS } from "./namespaces.ts";
import { createVcdStandin, type VcdStandin } from "./server.ts";

type Json = Record<string, unknown>;

let standin: VcdStandin;
let token: string;
beforeAll(async () => {
  standin = await createVcdStandin({ namespaces: "real" });
  token = await vcdLogin(standin);
});
afterAll(async () => {
  await standin.close();
});

async function xml(path: string): Promise<XmlElement> {
  const response = await vcdGet(standin, path, token);
  expect(response.status, `${path}: ${response.body}`).toBe(200);
  return parseXml(response.body);
}

function names(elements: XmlElement[]): string[] {
  return elements.map((e) => e.local);
}

function find(elements: XmlElement[], predicate: (e: XmlElement) => boolean): XmlElement {
  const found = elements.find(predicate);
  if (!found) throw new Error("element not found");
  return found;
}

const resourceType = (item: XmlElement) => childrenNamed(item, "ResourceType")[0]?.text;

describe("answers have the recorded shapes (fixtures/vcd) for the same endpoint", () => {
  it("POST /cloudapi/1.0.0/sessions: the body keys and types of POST.200.tenant.http", async () => {
    const recorded = vcdFixtureHttp("cloudapi_sessions/POST.200.tenant.http");
    const response = await call(`${standin.url}/cloudapi/1.0.0/sessions`, {
      method: "POST",
      ca: standin.caPem,
      headers: { Authorization: standin.basicAuth(), Accept: "application/json;version=37.0" },
    });
    const body = JSON.parse(response.body) as Json;
    const fixture = JSON.parse(recorded.body) as Json;
    expect(shapeOf(body)).toEqual(shapeOf(fixture));
    for (const key of ["site", "user", "org", "operatingOrg"]) {
      expect(shapeOf(body[key]), key).toEqual(shapeOf(fixture[key]));
    }
    expect(header(response, "Content-Type")).toBe(header(recorded, "Content-Type"));
    for (const name of ["X-VMWARE-VCLOUD-TOKEN-TYPE", "X-VMWARE-VCLOUD-REQUEST-ID"]) {
      expect(header(response, name), name).toBeDefined();
    }
  });

  it("GET /api/query?type=vm: root attributes, links and record attributes of the synthesized page", async () => {
    const recorded = parseXml(
      vcdFixtureText("query_vm/GET.200.page1-of-2-with-nextPage.synth.xml"),
    );
    const root = await xml("/api/query?type=vm&page=1&pageSize=2&format=records");
    expect(root.local).toBe("QueryResultRecords");
    expect(root.ns).toBe(NS.vcloud);
    expect(Object.keys(root.attrs).sort()).toEqual(Object.keys(recorded.attrs).sort());
    expect(root.attrs.pageSize).toBe("2");
    const rels = (e: XmlElement) => childrenNamed(e, "Link").map((l) => l.attrs.rel);
    expect(rels(root)).toEqual(rels(recorded));
    const record = find(childrenNamed(root, "VMRecord"), (r) => r.attrs.name === "web-01");
    const fixtureRecord = childrenNamed(recorded, "VMRecord")[0];
    expect(Object.keys(record.attrs).sort()).toEqual(
      Object.keys(fixtureRecord?.attrs ?? {}).sort(),
    );
    expect(record.attrs.numberOfCpus).toBe("2");
    expect(record.attrs.href).toBe(`${standin.url}/api/vApp/vm-${DEMO_IDS.vmWeb01}`);
  });

  it("GET /api/query?type=vm: a template record like the recorded one (catalogName, vAppTemplate hrefs)", async () => {
    const recorded = parseXml(vcdFixtureText("query_vm/GET.200.records-4vms-incl-template.xml"));
    const fixtureTemplate = find(
      childrenNamed(recorded, "VMRecord"),
      (r) => r.attrs.isVAppTemplate === "true",
    );
    const root = await xml("/api/query?type=vm&format=records");
    const template = find(
      childrenNamed(root, "VMRecord"),
      (r) => r.attrs.isVAppTemplate === "true",
    );
    for (const key of Object.keys(fixtureTemplate.attrs)) {
      if (key === "pvdcHighestSupportedHardwareVersion") continue; // gone in API 37+
      expect(template.attrs, key).toHaveProperty(key);
    }
    expect(template.attrs.href).toMatch(/\/api\/vAppTemplate\/vm-[0-9a-f-]{36}$/);
    expect(template.attrs.container).toMatch(/\/api\/vAppTemplate\/vappTemplate-[0-9a-f-]{36}$/);
  });

  it("GET {vm}/networkConnectionSection/: the recorded elements, plus NetworkAdapterType", async () => {
    const recorded = parseXml(
      vcdFixtureHttp(
        "vm_networkConnectionSection/GET.200.vm-84faa107-c0b9-4a21-adc5-b17e0c5355a2.http",
      ).body,
    );
    const root = await xml(`/api/vApp/vm-${DEMO_IDS.vmWeb01}/networkConnectionSection/`);
    expect(names(recorded.children)).toContain("NetworkConnection");
    expect(names(root.children)).toEqual(names(recorded.children));
    expect(Object.keys(root.attrs).sort()).toEqual(Object.keys(recorded.attrs).sort());
    expect(root.attrs.href).toMatch(/\/networkConnectionSection\/$/);
    const [connection] = childrenNamed(root, "NetworkConnection");
    const [fixtureConnection] = childrenNamed(recorded, "NetworkConnection");
    expect(names(connection?.children ?? [])).toEqual([
      ...names(fixtureConnection?.children ?? []),
      "NetworkAdapterType",
    ]);
    expect(Object.keys(connection?.attrs ?? {})).toEqual(
      Object.keys(fixtureConnection?.attrs ?? {}),
    );
  });

  it("GET {vm}/networkConnectionSection/: IpAddress is absent for a DHCP NIC without an address", async () => {
    const root = await xml(`/api/vApp/vm-${DEMO_IDS.vmWeb02}/networkConnectionSection/`);
    const [connection] = childrenNamed(root, "NetworkConnection");
    expect(names(connection?.children ?? [])).not.toContain("IpAddress");
  });

  it("GET {vm}/virtualHardwareSection/disks: controller and disk items as recorded, capacity in the vCloud namespace", async () => {
    const recorded = parseXml(
      vcdFixtureHttp("vm_disks/GET.200.vm-84faa107-c0b9-4a21-adc5-b17e0c5355a2.http").body,
    );
    const root = await xml(`/api/vApp/vm-${DEMO_IDS.vmDb01}/virtualHardwareSection/disks`);
    expect(root.local).toBe("RasdItemsList");
    const items = childrenNamed(root, "Item");
    const fixtureItems = childrenNamed(recorded, "Item");
    for (const type of ["6", "17", "5"]) {
      const mine = find(items, (i) => resourceType(i) === type);
      const theirs = find(fixtureItems, (i) => resourceType(i) === type);
      expect(names(mine.children), `ResourceType ${type}`).toEqual(names(theirs.children));
      expect(mine.children.every((c) => c.ns === NS.rasd)).toBe(true);
    }
    const disks = items.filter((i) => resourceType(i) === "17");
    const capacities = disks.map(
      (d) => childrenNamed(d, "HostResource")[0]?.nsAttrs[`{${NS.vcloud}}capacity`],
    );
    expect(capacities).toEqual(["40960", "512000"]);
    expect(items.filter((i) => resourceType(i) === "6")).toHaveLength(2);
  });

  it("GET /api/vApp/vm-{uuid}: a Vm entity whose root attributes are the recorded ones", async () => {
    const recorded = parseXml(vcdFixtureText("vm/GET.200.api9.0-two-nics.xml"));
    const root = await xml(`/api/vApp/vm-${DEMO_IDS.vmDb01}`);
    expect(Object.keys(root.attrs).sort()).toEqual(Object.keys(recorded.attrs).sort());
    expect(root.attrs.id).toBe(`urn:vcloud:vm:${DEMO_IDS.vmDb01}`);
    const section = childrenNamed(root, "NetworkConnectionSection")[0];
    expect(section && childrenNamed(section, "NetworkConnection")).toHaveLength(2);
  });

  it("GET /cloudapi/1.0.0/edgeGateways: page and edge gateway keys and types of GET.200.synth.json", async () => {
    const fixture = JSON.parse(vcdFixtureText("cloudapi_edgeGateways/GET.200.synth.json")) as Json;
    const response = await vcdGet(
      standin,
      "/cloudapi/1.0.0/edgeGateways?page=1&pageSize=25",
      token,
    );
    const body = JSON.parse(response.body) as Json;
    expect(shapeOf(body)).toEqual(shapeOf(fixture));
    const values = body.values as Json[];
    const edge = values.find((e) => e.name === "acme-edge-01") as Json;
    const recorded = (fixture.values as Json[])[0] as Json;
    expect(shapeOf(edge)).toEqual(shapeOf(recorded));
    for (const key of ["gatewayBacking", "edgeClusterConfig", "orgRef", "ownerRef", "orgVdc"]) {
      expect(shapeOf(edge[key]), key).toEqual(shapeOf(recorded[key]));
    }
    const uplink = (edge.edgeGatewayUplinks as Json[])[0];
    const recordedUplink = (recorded.edgeGatewayUplinks as Json[])[0];
    expect(shapeOf(uplink)).toEqual(shapeOf(recordedUplink));
  });

  it("errors: JSON {minorErrorCode, message, stackTrace} under /cloudapi, XML <Error> under /api", async () => {
    const fixture = JSON.parse(vcdFixtureText("cloudapi_errors/GET.400.json")) as Json;
    const json = await vcdGet(standin, "/cloudapi/1.0.0/edgeGateways?page=zero", token);
    expect(json.status).toBe(400);
    expect(shapeOf(JSON.parse(json.body))).toEqual(shapeOf(fixture));
    const missing = await vcdGet(standin, "/cloudapi/1.0.0/nothing", token);
    expect([missing.status, (JSON.parse(missing.body) as Json).minorErrorCode]).toEqual([
      404,
      "RESOURCE_NOT_FOUND",
    ]);
    const xmlError = await vcdGet(standin, "/api/nothing", token);
    expect(xmlError.status).toBe(404);
    expect(header(xmlError, "Content-Type")).toBe(
      "application/vnd.vmware.vcloud.error+xml;version=38.0",
    );
    const error = parseXml(xmlError.body);
    expect([error.local, error.ns]).toEqual(["Error", NS.vcloud]);
    expect(Object.keys(error.attrs).sort()).toEqual([
      "majorErrorCode",
      "message",
      "minorErrorCode",
    ]);
  });
});
