// The parsers on every recorded Director answer in fixtures/vcd.
import { isHyperError } from "@hyperlens/hyper-http";
import { describe, expect, it } from "vitest";
import { fixtureFiles, readFixtureText, readHttpFixture } from "../testing/fixtures.ts";
import { parseDisks } from "./disks.ts";
import { parseEdgeGatewayRecords } from "./edge-gateway-records.ts";
import { ownerTypeOf, parseEdgeGatewayPage } from "./edge-gateways.ts";
import { hasNextPageLink } from "./link-header.ts";
import { parseNetworkConnectionSection } from "./network-connections.ts";
import { parseSession } from "./session.ts";
import { parseSupportedVersions } from "./versions.ts";
import { parseVmQueryPage } from "./vm-records.ts";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

/** Renames the main namespace's prefix: default → `v:` and `vcloud:`/`ns13:` → `v2:`. */
function reprefix(xml: string): string {
  return xml
    .replace(
      /xmlns="http:\/\/www\.vmware\.com\/vcloud\/v1\.5"/g,
      'xmlns:v="http://www.vmware.com/vcloud/v1.5"',
    )
    .replace(/<(\/?)(?![a-zA-Z]+:)([A-Za-z]+[\s>/])/g, "<$1v:$2")
    .replace(/xmlns:(vcloud|ns13)=/g, "xmlns:v2=")
    .replace(/\b(vcloud|ns13):/g, "v2:");
}

describe("VM query pages", () => {
  it("leaves templates out but counts them toward total", () => {
    const page = parseVmQueryPage(
      readFixtureText("query_vm/GET.200.records-4vms-incl-template.xml"),
      "q",
    );
    expect(page.total).toBe(4);
    expect(page.recordCount).toBe(4);
    expect(page.recordHrefs).toHaveLength(4);
    expect(page.vms.map((v) => v.name)).toEqual(["jenkins01", "hipchat01", "testvmxnet"]);
    expect(page.vms.some((v) => v.href.includes("vAppTemplate"))).toBe(false);
    expect(page.hasNextPage).toBe(false);
  });

  it("reads every record attribute as a string and derives the URN from the href", () => {
    const page = parseVmQueryPage(
      readFixtureText("query_vm/GET.200.page1-of-2-with-nextPage.synth.xml"),
      "q",
    );
    expect(page).toMatchObject({
      page: 1,
      pageSize: 2,
      total: 3,
      recordCount: 2,
      hasNextPage: true,
    });
    expect(page.vms[0]).toMatchObject({
      urn: "urn:vcloud:vm:66666666-6666-6666-6666-666666666666",
      name: "web-01",
      status: "POWERED_ON",
      cpuCount: 2,
      memoryMiB: 4096,
      vappName: "web",
      vdcName: "acme-vdc",
      ipAddress: "10.0.10.11",
      isDeployed: true,
    });
    expect(page.vms[1]).toMatchObject({ name: "web-02", ipAddress: null, isDeployed: false });
  });

  it("reads the real 12-record packaged query", () => {
    const page = parseVmQueryPage(
      readFixtureText("query_vm/GET.200.packaged-vms-query-12records.xml"),
      "q",
    );
    expect(page.vms).toHaveLength(12);
    expect(page.vms.filter((v) => v.status === "POWERED_OFF")).toHaveLength(2);
    expect(new Set(page.vms.map((v) => v.urn)).size).toBe(12);
  });

  it("reads AdminVMRecord with its vCenter and moref", () => {
    const xml = `<QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" total="1" page="1" pageSize="25">
      <AdminVMRecord name="db" href="https://h/api/vApp/vm-12345678-1234-1234-1234-1234567890ab" status="POWERED_ON"
        numberOfCpus="4" memoryMB="8192" isVAppTemplate="false" moref="vm-42" hostName="esx01.lab"
        datastoreName="ds1" vc="https://h/api/admin/extension/vimServer/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee" org="https://h/api/org/1"/>
    </QueryResultRecords>`;
    const page = parseVmQueryPage(xml, "q");
    expect(page.vms[0]).toMatchObject({
      moref: "vm-42",
      hostName: "esx01.lab",
      datastoreName: "ds1",
      vcenterHref: "https://h/api/admin/extension/vimServer/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
    });
  });

  it("decodes predefined entities but never expands a DOCTYPE's own", () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;">]>
      <QueryResultRecords total="1"><VMRecord name="R&amp;D &#x263A; &b;" href="https://h/api/vApp/vm-12345678-1234-1234-1234-1234567890ab"/></QueryResultRecords>`;
    expect(parseVmQueryPage(xml, "q").vms[0]?.name).toBe("R&D \u263A &b;");
  });

  it("fails the page when a record has no href, instead of dropping the VM", () => {
    const xml = `<QueryResultRecords total="2"><VMRecord name="a" href="https://h/api/vApp/vm-12345678-1234-1234-1234-1234567890ab"/><VMRecord name="b"/></QueryResultRecords>`;
    const error = thrown(() => parseVmQueryPage(xml, "GET /api/query"));
    expect(isHyperError(error) && error.errorClass).toBe("malformed");
  });

  it("fails a truncated page instead of returning its first records", () => {
    const text = readFixtureText("query_vm/GET.200.packaged-vms-query-12records.xml");
    const cut = text.slice(0, text.lastIndexOf("<VMRecord"));
    const error = thrown(() => parseVmQueryPage(cut, "GET /api/query"));
    expect(isHyperError(error) && error.errorClass).toBe("malformed");
  });

  it("names the document it got when Director answers an Error", () => {
    const error = thrown(() =>
      parseVmQueryPage('<Error xmlns="http://www.vmware.com/vcloud/v1.5" message="x"/>', "GET q"),
    );
    expect(error instanceof Error && error.message).toMatch(
      /expected a <QueryResultRecords>.*Error/,
    );
  });
});

describe("NetworkConnectionSection", () => {
  it.each(fixtureFiles("vm_networkConnectionSection"))("parses %s", (file) => {
    const section = parseNetworkConnectionSection(readHttpFixture(file).body, file);
    expect(section.primaryIndex).toBe(0);
    expect(section.connections).toHaveLength(1);
    expect(section.connections[0]?.mac).toMatch(/^00:50:56:01:00:[0-9a-f]{2}$/);
  });

  it("reads IP, NAT address, allocation mode and connection state", () => {
    const file = "vm_networkConnectionSection/GET.200.vm-84faa107-c0b9-4a21-adc5-b17e0c5355a2.http";
    expect(parseNetworkConnectionSection(readHttpFixture(file).body, file).connections[0]).toEqual({
      index: 0,
      network: "vApp network test",
      mac: "00:50:56:01:00:0c",
      ipAddress: "192.168.2.100",
      secondaryIpAddresses: [],
      externalIpAddress: "10.12.7.4",
      isConnected: true,
      allocationMode: "POOL",
      adapterType: null,
    });
  });

  it("reads a DHCP NIC without an address as having none", () => {
    const file = "vm_networkConnectionSection/GET.200.vm-aaf94123-cbf9-4de9-841c-41dd41ac310e.http";
    const nic = parseNetworkConnectionSection(readHttpFixture(file).body, file).connections[0];
    expect(nic).toMatchObject({ ipAddress: null, allocationMode: "DHCP" });
  });

  it("reads two NICs with adapter types from a VM document's embedded section", () => {
    const vm = readFixtureText("vm/GET.200.api9.0-two-nics.xml");
    const start = vm.indexOf("<NetworkConnectionSection");
    const end = vm.indexOf("</NetworkConnectionSection>") + "</NetworkConnectionSection>".length;
    const section = parseNetworkConnectionSection(vm.slice(start, end), "embedded");
    expect(section.connections.map((c) => [c.index, c.network, c.mac, c.adapterType])).toEqual([
      [0, "RedHat Private network 43", "00:50:56:01:01:2a", "PCNet32"],
      [1, "Localhost", "00:50:56:01:01:2b", "PCNet32"],
    ]);
  });

  it("upper-case MACs are stored lower-case", () => {
    const xml = `<NetworkConnectionSection><NetworkConnection network="n"><NetworkConnectionIndex>2</NetworkConnectionIndex><MACAddress>00:50:56:AB:CD:EF</MACAddress><IsConnected>false</IsConnected></NetworkConnection></NetworkConnectionSection>`;
    expect(parseNetworkConnectionSection(xml, "s").connections[0]).toMatchObject({
      index: 2,
      mac: "00:50:56:ab:cd:ef",
      isConnected: false,
    });
  });

  it("fails on a NIC without an index rather than inventing a key", () => {
    const xml = `<NetworkConnectionSection><NetworkConnection network="n"><MACAddress>00:50:56:00:00:01</MACAddress></NetworkConnection></NetworkConnectionSection>`;
    expect(isHyperError(thrown(() => parseNetworkConnectionSection(xml, "s")))).toBe(true);
  });
});

describe("virtualHardwareSection/disks", () => {
  it.each(fixtureFiles("vm_disks"))("keeps only ResourceType 17 in %s (ns13:capacity)", (file) => {
    const disks = parseDisks(readHttpFixture(file).body, file);
    expect(disks).toHaveLength(1);
    expect(disks[0]).toMatchObject({ instanceId: "2000", name: "Hard disk 1", busType: "6" });
    expect(disks[0]?.capacityMiB).toBeGreaterThan(0);
  });

  it("reads the capacity in MB from the host resource", () => {
    const file = "vm_disks/GET.200.vm-350947aa-c16e-4eb3-98c1-fced9dac6dbc.http";
    expect(parseDisks(readHttpFixture(file).body, file)[0]).toMatchObject({
      capacityMiB: 67584,
      busSubType: "lsilogic",
    });
  });

  it("an empty list has no disks", () => {
    expect(parseDisks('<RasdItemsList xmlns="http://www.vmware.com/vcloud/v1.5"/>', "d")).toEqual(
      [],
    );
  });
});

describe("namespace prefixes do not matter (docs/behaviour.md §4)", () => {
  const cases = [
    ["query_vm/GET.200.page1-of-2-with-nextPage.synth.xml", false, parseVmQueryPage],
    ["vm_disks/GET.200.vm-84faa107-c0b9-4a21-adc5-b17e0c5355a2.http", true, parseDisks],
    [
      "vm_networkConnectionSection/GET.200.vm-84faa107-c0b9-4a21-adc5-b17e0c5355a2.http",
      true,
      parseNetworkConnectionSection,
    ],
    ["query_edgeGateway/GET.200.records.xml", false, parseEdgeGatewayRecords],
  ] as const;

  it.each(cases)("%s parses the same with other prefixes", (file, isHttp, parse) => {
    const original = isHttp ? readHttpFixture(file).body : readFixtureText(file);
    const renamed = reprefix(original);
    expect(renamed).not.toBe(original);
    expect(renamed).toMatch(/<v:[A-Z]/);
    if (original.includes("ns13:")) expect(renamed).toContain("v2:capacity");
    expect(parse(renamed, "renamed")).toEqual(parse(original, "original"));
  });

  it("reads the vcloud:-prefixed capacity of the Skyscape VM's disk", () => {
    const vm = readFixtureText("vm/GET.200.skyscape-api5.x.xml");
    const items = [...vm.matchAll(/<ovf:Item>[\s\S]*?<\/ovf:Item>/g)].map((m) => m[0]);
    const declarations =
      'xmlns="http://www.vmware.com/vcloud/v1.5" xmlns:vcloud="http://www.vmware.com/vcloud/v1.5" xmlns:ovf="http://schemas.dmtf.org/ovf/envelope/1" xmlns:rasd="http://schemas.dmtf.org/wbem/wscim/1/cim-schema/2/CIM_ResourceAllocationSettingData"';
    const list = `<RasdItemsList ${declarations}>${items.join("")}</RasdItemsList>`;
    expect(parseDisks(list, "skyscape")).toEqual([
      expect.objectContaining({ capacityMiB: 51200, busSubType: "lsilogic", busType: "6" }),
    ]);
  });
});

describe("edge gateways", () => {
  it("reads the CloudAPI page with its VDC owner and uplinks", () => {
    const page = parseEdgeGatewayPage(
      JSON.parse(readFixtureText("cloudapi_edgeGateways/GET.200.synth.json")),
      "e",
    );
    expect(page).toMatchObject({ page: 1, pageCount: 1, pageSize: 25, resultTotal: 1 });
    expect(page.gateways[0]).toMatchObject({
      id: "urn:vcloud:gateway:7b0e6f4a-3c1d-4f6e-9a2b-1c2d3e4f5a6b",
      name: "acme-edge-01",
      orgName: "acme",
      ownerType: "VDC",
      ownerName: "acme-vdc",
      gatewayType: "NSXT_BACKED",
      uplinks: [{ name: "ext-t0", primaryIps: ["203.0.113.10"], subnets: ["203.0.113.1/24"] }],
    });
  });

  it("tells a VDC group owner from a VDC", () => {
    const body = JSON.parse(readFixtureText("cloudapi_edgeGateways/GET.200.synth.json"));
    body.values[0].ownerRef = { name: "acme-group", id: "urn:vcloud:vdcGroup:1234" };
    delete body.values[0].orgVdc;
    delete body.pageCount;
    const page = parseEdgeGatewayPage(body, "e");
    expect(page.pageCount).toBeNull();
    expect(page.gateways[0]).toMatchObject({ ownerType: "VDC_GROUP", ownerName: "acme-group" });
    expect(ownerTypeOf("urn:vcloud:vdc:1")).toBe("VDC");
  });

  it("fails the page on a gateway without id", () => {
    const body = JSON.parse(readFixtureText("cloudapi_edgeGateways/GET.200.synth.json"));
    delete body.values[0].id;
    expect(isHyperError(thrown(() => parseEdgeGatewayPage(body, "e")))).toBe(true);
  });

  it("reads the legacy EdgeGatewayRecord query", () => {
    const page = parseEdgeGatewayRecords(
      readFixtureText("query_edgeGateway/GET.200.records.xml"),
      "q",
    );
    expect(page).toMatchObject({ total: 1, recordCount: 1 });
    expect(page.gateways[0]).toMatchObject({
      id: "urn:vcloud:gateway:00000000-0000-0000-0000-000000000000",
      name: "M916272752-5793",
      gatewayStatus: "READY",
      haStatus: "UP",
      externalNetworkCount: 1,
      orgNetworkCount: 2,
    });
  });

  it("finds rel=nextPage in a Link header among other links", () => {
    const next =
      '<https://h/cloudapi/1.0.0/edgeGateways?page=2&pageSize=25>;rel="nextPage";type="application/json";model="EdgeGateways"';
    const last =
      '<https://h/cloudapi/1.0.0/edgeGateways?page=3,x>;rel="lastPage";type="application/json"';
    expect(hasNextPageLink(`${last}, ${next}`)).toBe(true);
    expect(hasNextPageLink([last])).toBe(false);
    expect(hasNextPageLink(undefined)).toBe(false);
  });
});

describe("sessions and versions", () => {
  it("reads the session id, user and org of the tenant login", () => {
    const answer = readHttpFixture("cloudapi_sessions/POST.200.tenant.http");
    expect(answer.headers["x-vmware-vcloud-access-token"]).toBeTruthy();
    expect(parseSession(JSON.parse(answer.body), "login")).toEqual({
      id: "urn:vcloud:session:1f6a0a14-9f6e-4c1b-8a9e-3f1d2b7c5e10",
      userName: "inventory",
      orgName: "acme",
      location: "vcd01@acme",
      roles: ["Organization Administrator"],
    });
  });

  it("a session id that is not a session URN is not used in a logout path", () => {
    expect(parseSession({ id: "../../api/admin" }, "login").id).toBeNull();
  });

  it("reads /api/versions", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <SupportedVersions xmlns="http://www.vmware.com/vcloud/versions" xmlns:ovf="http://schemas.dmtf.org/ovf/envelope/1">
        <VersionInfo deprecated="true"><Version>36.0</Version><LoginUrl>https://h/api/sessions</LoginUrl></VersionInfo>
        <VersionInfo deprecated="false"><Version>37.2</Version><LoginUrl>https://h/api/sessions</LoginUrl></VersionInfo>
      </SupportedVersions>`;
    expect(parseSupportedVersions(xml, "v")).toEqual([
      { version: "36.0", isDeprecated: true },
      { version: "37.2", isDeprecated: false },
    ]);
  });
});
