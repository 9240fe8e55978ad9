import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, fixtureJson, shapeOf } from "../testing/https-client.ts";
import { demoCluster } from "./demo-cluster.ts";
import { ProxmoxCluster } from "./model.ts";
import { createProxmoxStandin, type ProxmoxStandin } from "./server.ts";
import type { PveVersion } from "./versions.ts";

type Json = Record<string, unknown>;

const standins = new Map<PveVersion, ProxmoxStandin>();
beforeAll(async () => {
  for (const version of ["7.4", "8.4", "9.1"] as const) {
    standins.set(version, await createProxmoxStandin({ version, cluster: demoCluster() }));
  }
});
afterAll(async () => {
  for (const standin of standins.values()) await standin.close();
});

async function data(version: PveVersion, path: string): Promise<unknown> {
  const s = standins.get(version);
  if (!s) throw new Error(`no ${version} stand-in`);
  const response = await call(`${s.apiUrl}${path}`, {
    ca: s.caPem,
    headers: { Authorization: s.tokenHeader },
  });
  expect(response.status, `${path}: ${response.reason}`).toBe(200);
  return (JSON.parse(response.body) as { data: unknown }).data;
}

function fixtureData(path: string): unknown {
  return (fixtureJson(path) as { data: unknown }).data;
}

function list(value: unknown): Json[] {
  if (!Array.isArray(value)) throw new Error("not a list");
  return value as Json[];
}

function find(entries: Json[], predicate: (entry: Json) => boolean): Json {
  const found = entries.find(predicate);
  if (!found) throw new Error("entry not found");
  return found;
}

/** Same keys, and for every key the same JSON type. */
function expectSameShape(actual: unknown, recorded: unknown) {
  expect(shapeOf(actual)).toEqual(shapeOf(recorded));
}

describe("response shapes match the fixtures for the same endpoint and version", () => {
  it.each([
    ["7.4", "version/GET.200.pve7.json", /^7\.4-\d+$/, 8],
    ["8.4", "version/GET.200.pve8.json", /^8\.4\.\d+$/, 16],
    ["9.1", "version/GET.200.pve9.json", /^9\.1\.\d+$/, 16],
  ] as const)("GET /version on %s", async (version, fixture, pattern, repoidLength) => {
    const body = (await data(version, "/version")) as Json;
    expectSameShape(body, fixtureData(fixture));
    expect(body.version).toMatch(pattern);
    expect(String(body.repoid)).toHaveLength(repoidLength);
  });

  it("GET /nodes: online nodes like the 7.4 capture, offline nodes keep only five keys", async () => {
    const nodes = list(await data("7.4", "/nodes"));
    const recordedOnline = list(fixtureData("nodes/GET.200.4-nodes-pve7.json"))[0];
    const recordedOffline = find(
      list(fixtureData("nodes/GET.200.with-offline-node-pve6.json")),
      (n) => n.status === "offline",
    );
    expectSameShape(
      find(nodes, (n) => n.status === "online"),
      recordedOnline,
    );
    expectSameShape(
      find(nodes, (n) => n.status === "offline"),
      recordedOffline,
    );
  });

  it("GET /cluster/status: cluster entry first, then nodes; a standalone node has no cluster entry", async () => {
    const entries = list(await data("8.4", "/cluster/status"));
    const recorded = list(fixtureData("cluster_status/GET.200.cluster.json"));
    expect(entries[0]?.type).toBe("cluster");
    expectSameShape(entries[0], recorded[0]);
    expectSameShape(entries[1], recorded[1]);

    const standalone = await createProxmoxStandin({
      cluster: new ProxmoxCluster({ nodes: [demoCluster().nodes[0] ?? fail()], guests: [] }),
    });
    try {
      const response = await call(`${standalone.apiUrl}/cluster/status`, {
        ca: standalone.caPem,
        headers: { Authorization: standalone.tokenHeader },
      });
      const body = JSON.parse(response.body) as { data: Json[] };
      const recordedStandalone = list(fixtureData("cluster_status/GET.200.standalone.json"));
      expect(body.data).toHaveLength(1);
      expectSameShape(body.data[0], recordedStandalone[0]);
      expect(body.data[0]?.nodeid).toBe(0);
    } finally {
      await standalone.close();
    }
  });

  it("GET /cluster/resources?type=vm: guest entries have every recorded key with the same type", async () => {
    const entries = list(await data("8.4", "/cluster/resources?type=vm"));
    const recorded = list(fixtureData("cluster_resources/GET.200.type-vm-pve8.json"));
    for (const type of ["qemu", "lxc"]) {
      const mine = shapeOf(
        find(entries, (e) => e.type === type && e.pool === undefined && e.tags === undefined),
      );
      const theirs = shapeOf(find(recorded, (e) => e.type === type && e.pool === undefined));
      expect(mine).toEqual(theirs);
    }
    expect(entries.every((e) => e.type === "qemu" || e.type === "lxc")).toBe(true);
  });

  it("GET /nodes/{node}/qemu: running and stopped entries like the 8.x capture (pid only when running)", async () => {
    const recorded = list(fixtureData("qemu_list/GET.200.pve8.json"));
    const running = list(await data("8.4", "/nodes/pve1/qemu"));
    expectSameShape(
      find(running, (e) => e.name === "vpn-gw"),
      find(recorded, (e) => e.status === "running"),
    );
    const stopped = list(await data("8.4", "/nodes/pve2/qemu"));
    expectSameShape(
      find(stopped, (e) => e.name === "legacy-erp"),
      find(recorded, (e) => e.status === "stopped"),
    );
  });

  it("GET /nodes/{node}/lxc: like the 7.4 capture with string vmids; integers from 8.2", async () => {
    const recorded = list(fixtureData("lxc_list/GET.200.pve7-vmid-string.json"));
    const on74 = find(list(await data("7.4", "/nodes/pve2/lxc")), (e) => e.name === "proxy");
    expectSameShape(
      on74,
      find(recorded, (e) => e.status === "running"),
    );
    const stopped74 = find(
      list(await data("7.4", "/nodes/pve2/lxc")),
      (e) => e.name === "old-wiki",
    );
    // The only recorded stopped container is a template; without `template` it is a plain stopped one.
    const { template: _template, ...recordedStopped } = find(
      recorded,
      (e) => e.status === "stopped",
    );
    expectSameShape(stopped74, recordedStopped);
    const on84 = find(list(await data("8.4", "/nodes/pve2/lxc")), (e) => e.name === "proxy");
    expect(on84.vmid).toBe(201);
    expect(on74.vmid).toBe("201");
  });

  it("GET …/qemu/{vmid}/config: config lines in the recorded formats; memory a string from 8.x", async () => {
    const on74 = (await data("7.4", "/nodes/pve1/qemu/102/config")) as Json;
    const on84 = (await data("8.4", "/nodes/pve1/qemu/102/config")) as Json;
    const recorded6 = fixtureData("qemu_config/GET.200.pve6-103.json") as Json;
    const recordedNew = fixtureData("qemu_config/GET.200.agent-enabled-syntax.json") as Json;
    expect(typeof on74.memory).toBe(typeof recorded6.memory);
    expect(typeof on84.memory).toBe(typeof recordedNew.memory);
    for (const key of [
      "name",
      "cores",
      "sockets",
      "ostype",
      "scsihw",
      "net0",
      "net1",
      "scsi0",
      "scsi1",
      "agent",
      "digest",
    ]) {
      expect(typeof on84[key], key).toBe(
        typeof recorded6[key] === "undefined" ? typeof recordedNew[key] : typeof recorded6[key],
      );
    }
    expect(on84.net0).toMatch(/^virtio=BC:24:11:4A:10:03,bridge=vmbr0,firewall=1$/);
    expect(on84.net1).toMatch(/^virtio=BC:24:11:4A:20:03,bridge=vmbr1,firewall=1,tag=20$/);
    expect(on84.digest).toMatch(/^[0-9a-f]{40}$/);
    expect(on84.vmid).toBeUndefined();
  });

  it("GET …/lxc/{vmid}/config: net lines like the recorded dhcp and static ones", async () => {
    const dhcp = (await data("8.4", "/nodes/pve2/lxc/201/config")) as Json;
    const staticIp = (await data("8.4", "/nodes/pve1/lxc/200/config")) as Json;
    const recorded = fixtureData("lxc_config/GET.200.dhcp-mp0-rawlxc-pve7.json") as Json;
    for (const key of [
      "arch",
      "cores",
      "hostname",
      "memory",
      "net0",
      "ostype",
      "rootfs",
      "swap",
      "digest",
    ]) {
      expect(typeof dhcp[key], key).toBe(typeof recorded[key]);
    }
    expect(dhcp.net0).toMatch(
      /^name=eth0,bridge=vmbr0,firewall=1,hwaddr=BC:24:11:5B:00:02,ip=dhcp,ip6=auto,type=veth$/,
    );
    expect(staticIp.net0).toContain("ip=10.10.0.53/24");
    expect(staticIp.net0).toContain("gw=10.10.0.1");
  });

  it("GET …/agent/network-get-interfaces: double wrapper, recorded interface keys, extra interfaces", async () => {
    const body = (await data("9.1", "/nodes/pve1/qemu/100/agent/network-get-interfaces")) as {
      result: Json[];
    };
    const recorded = (
      fixtureData("qemu_agent_network/GET.200.linux-pve6.json") as { result: Json[] }
    ).result;
    expectSameShape(body.result[0], recorded[0]);
    const recordedAddress = list(recorded[1]?.["ip-addresses"])[0];
    expectSameShape(list(body.result[1]?.["ip-addresses"])[0], recordedAddress);
    expect(body.result.map((i) => i.name)).toEqual([
      "lo",
      "ens18",
      "docker0",
      "veth3f2a1b9",
      "br-5c1d2e3f4a5b",
    ]);
    // The agent reports the NIC MAC in lower case; the config has it in upper case.
    expect(body.result[1]?.["hardware-address"]).toBe("bc:24:11:4a:10:01");
  });

  it("GET …/lxc/{vmid}/interfaces on 8.4: the recorded keys plus the newer agent-like ones", async () => {
    const entries = list(await data("8.4", "/nodes/pve2/lxc/201/interfaces"));
    const recorded = list(fixtureData("lxc_interfaces/GET.200.pve7.json"));
    const eth0 = find(entries, (e) => e.name === "eth0");
    const recordedEth0 = find(recorded, (e) => e.name === "eth0");
    for (const [key, type] of Object.entries(shapeOf(recordedEth0)))
      expect(typeof eth0[key], key).toBe(type);
    expect(eth0.inet).toBe("10.10.0.140/24");
    expect(Array.isArray(eth0["ip-addresses"])).toBe(true);
  });

  it("GET /nodes/{node}/status: keys of the 7.4 capture", async () => {
    const status = (await data("7.4", "/nodes/pve1/status")) as Json;
    const recorded = fixtureData("node_status/GET.200.pve7.json") as Json;
    expectSameShape(status, recorded);
    expect(status.pveversion).toBe("pve-manager/7.4-16/0f39f621");
  });

  it("POST /access/ticket: the keys of the captured login", async () => {
    const s = standins.get("8.4") ?? fail();
    const response = await call(`${s.apiUrl}/access/ticket`, {
      method: "POST",
      ca: s.caPem,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "username=root%40pam&password=standin-password",
    });
    const body = JSON.parse(response.body) as { data: Json };
    expectSameShape(body.data, fixtureData("access_ticket/POST.200.json"));
    expect(body.data.ticket).toMatch(/^PVE:root@pam:[0-9A-F]{8}::[A-Za-z0-9+/=]+$/);
    expect(body.data.CSRFPreventionToken).toMatch(/^[0-9A-F]{8}:[A-Za-z0-9+/]+$/);
  });
});

function fail(): never {
  throw new Error("missing test data");
}
