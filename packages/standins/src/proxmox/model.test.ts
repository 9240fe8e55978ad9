import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../testing/https-client.ts";
import { createProxmoxStandin, type ProxmoxStandin } from "../testing/standins.ts";
import { demoCluster } from "./demo-cluster.ts";
import { lxcGuest } from "./guest-builders.ts";

type Json = Record<string, unknown>;
let s: ProxmoxStandin;
beforeAll(async () => {
  s = await createProxmoxStandin({ cluster: demoCluster(), version: "8.4" });
});
afterAll(async () => {
  await s.close();
});

async function get(path: string) {
  return call(`${s.apiUrl}${path}`, { ca: s.caPem, headers: { Authorization: s.tokenHeader } });
}

async function data(path: string): Promise<Json[]> {
  const response = await get(path);
  expect(response.status, response.reason).toBe(200);
  return (JSON.parse(response.body) as { data: Json[] }).data;
}

const vmids = (entries: Json[]) => entries.map((e) => e.vmid);

describe("changes to the model show on the next request", () => {
  it("a moved guest leaves its old node's list and config, and appears on the new node", async () => {
    expect(vmids(await data("/nodes/pve1/qemu"))).toContain(100);
    s.cluster.moveGuest(100, "pve3");
    expect(vmids(await data("/nodes/pve1/qemu"))).not.toContain(100);
    expect(vmids(await data("/nodes/pve3/qemu"))).toContain(100);
    expect((await get("/nodes/pve1/qemu/100/config")).status).toBe(500);
    expect((await get("/nodes/pve3/qemu/100/config")).status).toBe(200);
    s.cluster.moveGuest(100, "pve1");
  });

  it("added and removed guests", async () => {
    s.cluster.addGuest(
      lxcGuest({
        vmid: 777,
        name: "new-ct",
        node: "pve2",
        nics: [{ mac: "BC:24:11:77:77:77", ip: "dhcp" }],
      }),
    );
    expect(vmids(await data("/nodes/pve2/lxc"))).toContain(777);
    s.cluster.removeGuest(777);
    expect(vmids(await data("/nodes/pve2/lxc"))).not.toContain(777);
    expect(() => s.cluster.addGuest(lxcGuest({ vmid: 100, name: "dup", node: "pve1" }))).toThrow(
      /already exists/,
    );
  });

  it("a node taken offline answers 595 for its lists and shows offline in /nodes and /cluster/resources", async () => {
    s.cluster.setNodeOnline("pve3", false);
    expect((await get("/nodes/pve3/qemu")).status).toBe(595);
    expect((await get("/nodes/pve3/lxc")).status).toBe(595);
    expect((await get("/nodes/pve3/qemu/111/config")).status).toBe(595);
    const nodes = await data("/nodes");
    expect(nodes.find((n) => n.node === "pve3")).toEqual(
      expect.objectContaining({ status: "offline" }),
    );
    expect(nodes.find((n) => n.node === "pve3")).not.toHaveProperty("cpu");
    const resources = await data("/cluster/resources?type=vm");
    expect(resources.find((r) => r.vmid === 111)?.status).toBe("unknown");
    s.cluster.setNodeOnline("pve3", true);
    expect((await get("/nodes/pve3/qemu")).status).toBe(200);
  });

  it("config changes, status changes and agent changes", async () => {
    s.cluster.setConfig(102, "net2", "e1000=BC:24:11:4A:99:99,bridge=vmbr2");
    s.cluster.setConfig(102, "agent", undefined);
    const config = (await get("/nodes/pve1/qemu/102/config")).body;
    expect(JSON.parse(config).data.net2).toBe("e1000=BC:24:11:4A:99:99,bridge=vmbr2");
    expect((await get("/nodes/pve1/qemu/102/agent/network-get-interfaces")).status).toBe(403);

    s.cluster.setStatus(200, "stopped");
    const ct = (await data("/nodes/pve1/lxc")).find((e) => e.vmid === 200);
    expect(ct?.status).toBe("stopped");
    expect(ct).not.toHaveProperty("pid");
    s.cluster.setStatus(200, "running");

    s.cluster.rename(121, "vpn-gw-renamed");
    expect((await data("/nodes/pve1/qemu")).find((e) => e.vmid === 121)?.name).toBe(
      "vpn-gw-renamed",
    );
  });

  it("the cluster name comes from the model; clearing it makes a standalone answer", async () => {
    expect((await data("/cluster/status"))[0]).toEqual(
      expect.objectContaining({ type: "cluster", name: "pve-prod" }),
    );
    const copy = s.cluster.clone();
    copy.name = undefined;
    const standalone = await createProxmoxStandin({ cluster: copy });
    try {
      const response = await call(`${standalone.apiUrl}/cluster/status`, {
        ca: standalone.caPem,
        headers: { Authorization: standalone.tokenHeader },
      });
      const entries = (JSON.parse(response.body) as { data: Json[] }).data;
      expect(entries.some((e) => e.type === "cluster")).toBe(false);
    } finally {
      await standalone.close();
    }
  });
});

describe("the request log", () => {
  it("records every request with method, path, query and status, writes included", async () => {
    s.requests.length = 0;
    await get("/cluster/resources?type=vm");
    for (const method of ["POST", "PUT", "DELETE"]) {
      const response = await call(`${s.apiUrl}/nodes/pve1/qemu/100/status/stop`, {
        method,
        ca: s.caPem,
        headers: { Authorization: s.tokenHeader },
      });
      expect(response.status).toBe(501);
      expect(response.reason).toBe(
        `Method '${method} /nodes/pve1/qemu/100/status/stop' not implemented`,
      );
    }
    expect(s.requests.map((r) => [r.method, r.path, r.query, r.status])).toEqual([
      ["GET", "/api2/json/cluster/resources", "type=vm", 200],
      ["POST", "/api2/json/nodes/pve1/qemu/100/status/stop", "", 501],
      ["PUT", "/api2/json/nodes/pve1/qemu/100/status/stop", "", 501],
      ["DELETE", "/api2/json/nodes/pve1/qemu/100/status/stop", "", 501],
    ]);
    const writes = s.requests.filter(
      (r) => r.method !== "GET" && r.path !== "/api2/json/access/ticket",
    );
    expect(writes).toHaveLength(3);
    expect(s.stats.byMethod.POST).toBeGreaterThanOrEqual(1);
    expect(s.stats.byRoute["GET /cluster/resources"]).toBeGreaterThanOrEqual(1);
  });
});

describe("fault switches on Proxmox paths", () => {
  it("fail the second qemu list with 595 and hang an agent call, relative to /api2/json", async () => {
    s.faults.fail("/nodes/{node}/qemu", 595, { reason: "No route to host", nth: 2 });
    expect((await get("/nodes/pve1/qemu")).status).toBe(200);
    expect((await get("/nodes/pve1/qemu")).status).toBe(595);
    expect((await get("/nodes/pve1/qemu")).status).toBe(200);
    s.faults.hang("/nodes/*/qemu/*/agent/**", { times: 1 });
    const hung = call(`${s.apiUrl}/nodes/pve1/qemu/100/agent/network-get-interfaces`, {
      ca: s.caPem,
      headers: { Authorization: s.tokenHeader },
      timeoutMs: 100,
    });
    await expect(hung).rejects.toThrow(/client timeout/);
    s.faults.clear();
  });
});
