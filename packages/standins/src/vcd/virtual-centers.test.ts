import { describe, expect, it } from "vitest";
import { closedAfterEach } from "../testing/closed-after-each.ts";
import { header } from "../testing/https-client.ts";
import { createVcdStandin } from "../testing/standins.ts";
import { PROVIDER, TENANT, vcdGet, vcdLogin } from "../testing/vcd-client.ts";
import { childrenNamed, parseXml } from "../testing/xml.ts";
import { DEMO_IDS } from "./demo-director.ts";

type VcPage = {
  resultTotal: number;
  pageCount: number;
  page: number;
  pageSize: number;
  values: Array<{ vcId: string; name: string; url: string; isConnected: boolean; uuid: string }>;
};

const PATH = "/cloudapi/1.0.0/virtualCenters";

const start = closedAfterEach(createVcdStandin);

const second = {
  id: "5e1a0c2b-7d3f-4b9e-8a6c-0f2d4e6a8b1c",
  name: "vc02",
  url: "https://VC02.example.test:443/sdk",
};

describe("CloudAPI virtualCenters", () => {
  it("lists the registered vCenters to a provider, with the vimServer id the admin VM records use", async () => {
    const s = await start();
    const token = await vcdLogin(s, PROVIDER);
    const answer = await vcdGet(s, PATH, token);
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body) as VcPage;
    expect([body.resultTotal, body.pageCount, body.page]).toEqual([1, 1, 1]);
    expect(body.values[0]).toMatchObject({
      vcId: `urn:vcloud:vimserver:${s.model.vcenter.id}`,
      name: "vc01",
      url: "https://vc01.example.test",
      isConnected: true,
    });
    expect(body.values[0]?.uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    const records = await vcdGet(s, "/api/query?type=adminVM&format=records", token);
    const vm = childrenNamed(parseXml(records.body), "AdminVMRecord")[0];
    expect(vm?.attrs.vc).toMatch(
      new RegExp(`/api/admin/extension/vimServer/${s.model.vcenter.id}$`),
    );
  });

  it("refuses a tenant with Director's JSON error", async () => {
    const s = await start();
    const answer = await vcdGet(s, PATH, await vcdLogin(s, TENANT));
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({
      minorErrorCode: "ACCESS_TO_RESOURCE_IS_FORBIDDEN",
      message: expect.stringContaining("This operation is denied."),
    });
  });

  it("pages by page/pageSize with Link headers, and a VM names the vCenter it picked", async () => {
    const s = await start({ cloudApiMaxPageSize: 1 });
    s.model.addVcenter(second);
    s.model.updateVm(DEMO_IDS.vmDb01, { vcenterId: second.id });
    const token = await vcdLogin(s, PROVIDER);
    const first = await vcdGet(s, `${PATH}?page=1&pageSize=25`, token);
    const page1 = JSON.parse(first.body) as VcPage;
    expect([page1.resultTotal, page1.pageCount, page1.pageSize]).toEqual([2, 2, 1]);
    expect(header(first, "Link") ?? "").toContain('rel="nextPage"');
    const page2 = JSON.parse((await vcdGet(s, `${PATH}?page=2&pageSize=25`, token)).body) as VcPage;
    expect(page2.values.map((v) => v.url)).toEqual([second.url]);
    const records = await vcdGet(s, "/api/query?type=adminVM&format=records", token);
    const db = childrenNamed(parseXml(records.body), "AdminVMRecord").find(
      (r) => r.attrs.name === "db-01",
    );
    expect(db?.attrs).toMatchObject({ vcName: "vc02", vc: expect.stringContaining(second.id) });
  });

  it("answers to the fault switches like every other path", async () => {
    const s = await start();
    const token = await vcdLogin(s, PROVIDER);
    s.faults.fail(PATH, 500, { times: 1 });
    expect((await vcdGet(s, PATH, token)).status).toBe(500);
    expect((await vcdGet(s, PATH, token)).status).toBe(200);
    expect(s.stats.byRoute[`GET ${PATH}`]).toBe(1);
  });
});
