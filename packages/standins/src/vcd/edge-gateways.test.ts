import { describe, expect, it } from "vitest";
import { closedAfterEach } from "../testing/closed-after-each.ts";
import { header } from "../testing/https-client.ts";
import { PROVIDER, vcdGet, vcdLogin } from "../testing/vcd-client.ts";
import { childrenNamed, parseXml } from "../testing/xml.ts";
import { vcdEdgeGateway } from "./builders.ts";
import { DEMO_IDS } from "./demo-director.ts";
import { generateDirector } from "./generator.ts";
import { createVcdStandin } from "./server.ts";

type EdgePage = {
  resultTotal: number;
  pageCount?: number;
  page: number;
  pageSize: number;
  values: Array<{ name: string; ownerRef: { id: string }; orgVdc: unknown }>;
};

const start = closedAfterEach(createVcdStandin);

describe("CloudAPI edge gateways", () => {
  it("caps the page, and links the next page in a Link header like Director's", async () => {
    const s = await start({
      model: generateDirector({ vms: 0, edgeGateways: 7 }),
      edgeGatewayMaxPageSize: 3,
    });
    const token = await vcdLogin(s, PROVIDER);
    const first = await vcdGet(s, "/cloudapi/1.0.0/edgeGateways?page=1&pageSize=25", token);
    const body = JSON.parse(first.body) as EdgePage;
    expect([body.resultTotal, body.pageCount, body.page, body.pageSize]).toEqual([7, 3, 1, 3]);
    expect(body.values).toHaveLength(3);
    const links = first.headers.filter(([name]) => name.toLowerCase() === "link").map(([, v]) => v);
    expect(links).toContain(
      `<${s.url}/cloudapi/1.0.0/edgeGateways?page=2&pageSize=3>;rel="nextPage";type="application/json";model="EdgeGateways"`,
    );
    const names: string[] = [];
    for (let p = 1; p <= 3; p += 1) {
      const response = await vcdGet(s, `/cloudapi/1.0.0/edgeGateways?page=${p}&pageSize=25`, token);
      names.push(...(JSON.parse(response.body) as EdgePage).values.map((v) => v.name));
      if (p === 3) expect(header(response, "Link") ?? "").not.toContain('rel="nextPage"');
    }
    expect(new Set(names).size).toBe(7);
  });

  it("owners are VDCs or VDC groups; a group's edge has orgVdc null", async () => {
    const s = await start();
    const token = await vcdLogin(s);
    const body = JSON.parse(
      (await vcdGet(s, "/cloudapi/1.0.0/edgeGateways", token)).body,
    ) as EdgePage;
    const owners = Object.fromEntries(body.values.map((v) => [v.name, v.ownerRef.id]));
    expect(owners).toEqual({
      "acme-edge-01": `urn:vcloud:vdc:${DEMO_IDS.vdcAcmeProd}`,
      "acme-edge-shared": `urn:vcloud:vdcGroup:${DEMO_IDS.vdcGroupAcme}`,
    });
    expect(body.values.find((v) => v.name === "acme-edge-shared")?.orgVdc).toBeNull();
  });

  it("a tenant sees only its org's edges; the provider sees all", async () => {
    const s = await start();
    const read = async (token: string) =>
      JSON.parse((await vcdGet(s, "/cloudapi/1.0.0/edgeGateways", token)).body) as EdgePage;
    const tenant = await read(await vcdLogin(s));
    expect(tenant.resultTotal).toBe(2);
    expect(tenant.values.map((v) => v.name)).not.toContain("globex-edge-01");
    const provider = await read(await vcdLogin(s, PROVIDER));
    expect(provider.resultTotal).toBe(3);
  });

  it("the pageCount and Link omissions imitate the known API bug", async () => {
    const s = await start({
      model: generateDirector({ vms: 0, edgeGateways: 4 }),
      edgeGatewayMaxPageSize: 2,
      omitEdgeGatewayPageCount: true,
      omitEdgeGatewayLinks: true,
    });
    const response = await vcdGet(s, "/cloudapi/1.0.0/edgeGateways", await vcdLogin(s, PROVIDER));
    const body = JSON.parse(response.body) as EdgePage;
    expect(body).not.toHaveProperty("pageCount");
    expect([body.resultTotal, body.pageSize]).toEqual([4, 2]);
    expect(header(response, "Link")).toBeUndefined();
  });

  it("added and removed edges show on the next read; the legacy query lists them too", async () => {
    const s = await start();
    const token = await vcdLogin(s);
    s.model.removeEdgeGateway(DEMO_IDS.edgeAcme);
    s.model.addEdgeGateway(
      vcdEdgeGateway({ name: "acme-edge-02", owner: { kind: "vdc", id: DEMO_IDS.vdcAcmeDev } }),
    );
    const body = JSON.parse(
      (await vcdGet(s, "/cloudapi/1.0.0/edgeGateways", token)).body,
    ) as EdgePage;
    expect(body.values.map((v) => v.name).sort()).toEqual(["acme-edge-02", "acme-edge-shared"]);
    const legacy = parseXml((await vcdGet(s, "/api/query?type=edgeGateway", token)).body);
    expect(
      childrenNamed(legacy, "EdgeGatewayRecord")
        .map((r) => r.attrs.name)
        .sort(),
    ).toEqual(["acme-edge-02", "acme-edge-shared"]);
  });
});
