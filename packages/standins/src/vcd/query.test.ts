import { describe, expect, it } from "vitest";
import { closedAfterEach } from "../testing/closed-after-each.ts";
import { header } from "../testing/https-client.ts";
import { PROVIDER, vcdGet, vcdLogin } from "../testing/vcd-client.ts";
import { childrenNamed, parseXml, type XmlElement } from "../testing/xml.ts";
import { vcdVm } from "./builders.ts";
import { DEMO_IDS } from "./demo-director.ts";
import { generateDirector } from "./generator.ts";
import { NS } from "./namespaces.ts";
import { createVcdStandin, type VcdStandin } from "./server.ts";

const start = closedAfterEach(createVcdStandin);

async function page(s: VcdStandin, token: string, path: string): Promise<XmlElement> {
  const response = await vcdGet(s, path, token);
  expect(response.status, response.body).toBe(200);
  expect(header(response, "Content-Type")).toBe(
    "application/vnd.vmware.vcloud.query.records+xml;version=38.0",
  );
  return parseXml(response.body);
}

function link(root: XmlElement, rel: string): string | undefined {
  return childrenNamed(root, "Link").find((l) => l.attrs.rel === rel)?.attrs.href;
}

/** Follow nextPage links as a client would, collecting every record. */
async function readAll(s: VcdStandin, token: string, first: string) {
  const records: XmlElement[] = [];
  const pageSizes: string[] = [];
  let next: string | undefined = first;
  while (next !== undefined) {
    const root = await page(s, token, next.replace(s.url, ""));
    pageSizes.push(root.attrs.pageSize ?? "");
    records.push(...root.children.filter((c) => c.local.endsWith("Record")));
    next = link(root, "nextPage");
  }
  return { records, pageSizes };
}

describe("the VM query", () => {
  it("caps pageSize silently at maxPageSize, reports the size used, and links the next pages", async () => {
    const s = await start({ model: generateDirector({ vms: 60, seed: 7 }), maxPageSize: 25 });
    const token = await vcdLogin(s, PROVIDER);
    const first = await page(s, token, "/api/query?type=vm&page=1&pageSize=128&format=records");
    expect([first.attrs.page, first.attrs.pageSize, first.attrs.total]).toEqual(["1", "25", "60"]);
    expect(childrenNamed(first, "VMRecord")).toHaveLength(25);
    expect(link(first, "nextPage")).toContain("page=2&pageSize=25");
    expect(link(first, "lastPage")).toContain("page=3&pageSize=25");
    expect(childrenNamed(first, "Link").filter((l) => l.attrs.rel === "alternate")).toHaveLength(2);
    const { records, pageSizes } = await readAll(
      s,
      token,
      "/api/query?type=vm&page=1&pageSize=128&format=records",
    );
    expect(pageSizes).toEqual(["25", "25", "25"]);
    expect(new Set(records.map((r) => r.attrs.href)).size).toBe(60);
  });

  it("the last page has previousPage and firstPage but no nextPage; a page past the end is empty", async () => {
    const s = await start({ model: generateDirector({ vms: 5 }) });
    const token = await vcdLogin(s, PROVIDER);
    const last = await page(s, token, "/api/query?type=vm&page=3&pageSize=2");
    expect(childrenNamed(last, "VMRecord")).toHaveLength(1);
    expect(link(last, "nextPage")).toBeUndefined();
    expect(link(last, "previousPage")).toContain("page=2");
    expect(link(last, "firstPage")).toContain("page=1");
    const past = await page(s, token, "/api/query?type=vm&page=9&pageSize=2");
    expect([childrenNamed(past, "VMRecord").length, past.attrs.total]).toEqual([0, "5"]);
  });

  it("a tenant sees only its own org's VMs (templates included) and may not query adminVM", async () => {
    const s = await start();
    const token = await vcdLogin(s);
    const root = await page(s, token, "/api/query?type=vm");
    const vdcs = new Set(childrenNamed(root, "VMRecord").map((r) => r.attrs.vdcName));
    expect([...vdcs].sort()).toEqual(["acme-dev", "acme-prod"]);
    expect(root.attrs.total).toBe("5");
    expect(childrenNamed(root, "VMRecord").some((r) => r.attrs.isVAppTemplate === "true")).toBe(
      true,
    );
    expect((await vcdGet(s, "/api/query?type=adminVM", token)).status).toBe(403);
    const foreign = await vcdGet(s, `/api/vApp/vm-${DEMO_IDS.vmGlobexApp01}`, token);
    expect([foreign.status, foreign.body]).toEqual([
      403,
      expect.stringContaining("ACCESS_TO_RESOURCE_IS_FORBIDDEN"),
    ]);
  });

  it("a provider's adminVM records carry the vCenter placement of every org's VMs", async () => {
    const s = await start();
    const token = await vcdLogin(s, PROVIDER);
    const root = await page(s, token, "/api/query?type=adminVM&format=records");
    const records = childrenNamed(root, "AdminVMRecord");
    expect(records).toHaveLength(6);
    const db = records.find((r) => r.attrs.name === "db-01");
    expect(db?.attrs).toMatchObject({
      moref: "vm-1003",
      hostName: "esx01.example.com",
      datastoreName: "ds-nvme-01",
      vc: expect.stringContaining("/api/admin/extension/vimServer/"),
    });
  });

  it("the isVAppTemplate filter drops templates and total counts what matched", async () => {
    const s = await start();
    const token = await vcdLogin(s);
    const root = await page(s, token, "/api/query?type=vm&filter=isVAppTemplate==false");
    expect(root.attrs.total).toBe("4");
    expect(link(root, "alternate")).toContain("filter=isVAppTemplate%3D%3Dfalse");
    expect((await vcdGet(s, "/api/query?type=vm&filter=name=gt=a", token)).status).toBe(400);
  });

  it("with unusual prefixes every element is still in the vCloud namespace by local name", async () => {
    const s = await start({ namespaces: "unusual" });
    const token = await vcdLogin(s);
    const root = await page(s, token, "/api/query?type=vm");
    expect(root.qname).toBe("ns7:QueryResultRecords");
    expect(root.ns).toBe(NS.vcloud);
    const disks = parseXml(
      (await vcdGet(s, `/api/vApp/vm-${DEMO_IDS.vmDb01}/virtualHardwareSection/disks`, token)).body,
    );
    const hostResource = childrenNamed(disks, "Item")
      .flatMap((item) => childrenNamed(item, "HostResource"))
      .at(0);
    expect(hostResource?.qname).toBe("r:HostResource");
    expect(hostResource?.nsAttrs[`{${NS.vcloud}}capacity`]).toBe("40960");
    expect(Object.keys(hostResource?.attrs ?? {})).not.toContain("ns13:capacity");
    s.settings.namespaces = "real";
    const real = await page(s, token, "/api/query?type=vm");
    expect(real.qname).toBe("QueryResultRecords");
  });

  it("model changes show on the next request: add, remove, rename, power, NICs", async () => {
    const s = await start();
    const token = await vcdLogin(s);
    s.model.addVm(vcdVm({ name: "new-01", vappId: DEMO_IDS.vappWeb }));
    s.model.removeVm(DEMO_IDS.vmWeb02);
    s.model.renameVm(DEMO_IDS.vmWeb01, "web-01-renamed");
    s.model.setPowerState(DEMO_IDS.vmDev01, "POWERED_ON");
    s.model.setNics(DEMO_IDS.vmDb01, [
      {
        index: 0,
        network: "db-net",
        mac: "00:50:56:01:09:09",
        ipAddress: "10.0.20.99",
        allocationMode: "MANUAL",
        connected: true,
        adapterType: "VMXNET3",
      },
    ]);
    const records = childrenNamed(await page(s, token, "/api/query?type=vm"), "VMRecord");
    const byName = new Map(records.map((r) => [r.attrs.name, r.attrs]));
    expect(byName.has("new-01")).toBe(true);
    expect(byName.has("web-02")).toBe(false);
    expect(byName.has("web-01-renamed")).toBe(true);
    expect(byName.get("dev-01")?.status).toBe("POWERED_ON");
    expect(byName.get("db-01")?.ipAddress).toBe("10.0.20.99");
    const gone = await vcdGet(
      s,
      `/api/vApp/vm-${DEMO_IDS.vmWeb02}/networkConnectionSection/`,
      token,
    );
    expect(gone.status).toBe(403);
  });

  it("pages through 5,000 generated VMs at the default cap of 128", async () => {
    const s = await start({ model: generateDirector({ vms: 5000, orgs: 4, seed: 3 }) });
    const token = await vcdLogin(s, PROVIDER);
    const { records, pageSizes } = await readAll(
      s,
      token,
      "/api/query?type=adminVM&page=1&pageSize=500&format=records",
    );
    expect(records).toHaveLength(5000);
    expect(pageSizes.every((size) => size === "128")).toBe(true);
  });
});
