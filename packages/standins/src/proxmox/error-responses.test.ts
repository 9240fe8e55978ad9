import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, fixtureHttp, type RawResponse } from "../testing/https-client.ts";
import { lxcGuest, proxmoxNode, qemuGuest } from "./guest-builders.ts";
import { ProxmoxCluster } from "./model.ts";
import { createProxmoxStandin, type ProxmoxStandin } from "./server.ts";
import type { PveVersion } from "./versions.ts";

/** A cluster whose names and vmids are the ones in fixtures/proxmox/errors. */
function fixtureCluster(): ProxmoxCluster {
  return new ProxmoxCluster({
    name: "lab",
    nodes: [proxmoxNode({ name: "pve" }), proxmoxNode({ name: "pve2", online: false }, 1)],
    guests: [
      lxcGuest({ vmid: 100, name: "ct", node: "pve" }),
      qemuGuest({ vmid: 101, name: "stopped", node: "pve", status: "stopped" }),
      qemuGuest({
        vmid: 102,
        name: "failing",
        node: "pve",
        agentReply: { state: "command-fails", reason: "got timeout" },
      }),
      qemuGuest({ vmid: 103, name: "no-agent", node: "pve", agent: false }),
      qemuGuest({ vmid: 104, name: "silent", node: "pve", agentReply: { state: "silent" } }),
      qemuGuest({ vmid: 105, name: "offline", node: "pve2" }),
    ],
  });
}

/** Everything but the Date/Expires values must match the recording byte for byte. */
function expectSameAsFixture(actual: RawResponse, fixture: RawResponse) {
  const strip = (r: RawResponse) =>
    r.headers.map(([k, v]) => [k.toLowerCase(), /^(date|expires)$/i.test(k) ? "<date>" : v]);
  expect(actual.status).toBe(fixture.status);
  expect(actual.reason).toBe(fixture.reason);
  expect(strip(actual).sort()).toEqual(strip(fixture).sort());
  expect(actual.body).toBe(fixture.body);
}

const standins = new Map<PveVersion, ProxmoxStandin>();
beforeAll(async () => {
  for (const version of ["7.4", "9.1"] as const) {
    standins.set(version, await createProxmoxStandin({ version, cluster: fixtureCluster() }));
  }
});
afterAll(async () => {
  for (const standin of standins.values()) await standin.close();
});

function standin(version: PveVersion): ProxmoxStandin {
  const found = standins.get(version);
  if (!found) throw new Error(`no ${version} stand-in`);
  return found;
}

async function get(version: PveVersion, path: string, headers?: Record<string, string>) {
  const s = standin(version);
  return call(`${s.apiUrl}${path}`, {
    ca: s.caPem,
    headers: headers ?? { Authorization: s.tokenHeader },
  });
}

describe("error answers match the recorded bytes", () => {
  it("a request without credentials is 401 No ticket with an empty body", async () => {
    expectSameAsFixture(await get("9.1", "/nodes", {}), fixtureHttp("any.GET.401.no-ticket.http"));
  });

  it("a wrong token secret is 401 Authentication failed! with an empty body", async () => {
    const response = await get("7.4", "/nodes", {
      Authorization: "PVEAPIToken=hyperlens@pve!inventory=wrong",
    });
    expectSameAsFixture(response, fixtureHttp("any.GET.401.bad-ticket-or-token.http"));
  });

  it("a list on an offline node is 595 No route to host with an empty body", async () => {
    expectSameAsFixture(
      await get("7.4", "/nodes/pve2/qemu"),
      fixtureHttp("proxied.GET.595.no-route.http"),
    );
  });

  it("lxc interfaces on 7.4 is 501 not implemented", async () => {
    expectSameAsFixture(
      await get("7.4", "/nodes/pve/lxc/100/interfaces"),
      fixtureHttp("unknown-path.GET.501.http"),
    );
  });

  it("an unknown node is 500 hostname lookup failed", async () => {
    expectSameAsFixture(
      await get("7.4", "/nodes/doesntexist/status"),
      fixtureHttp("nodes_status.GET.500.unknown-node.http"),
    );
  });

  it("agent failures on 7.4 (admin token) are 500s with the text in the status line only", async () => {
    const admin = await createProxmoxStandin({
      version: "7.4",
      cluster: fixtureCluster(),
      tokens: [{ id: "root@pam!admin", secret: "s3cret", role: "admin" }],
    });
    try {
      const agent = (vmid: number) =>
        call(`${admin.apiUrl}/nodes/pve/qemu/${vmid}/agent/network-get-interfaces`, {
          ca: admin.caPem,
          headers: { Authorization: admin.tokenHeader },
        });
      expectSameAsFixture(
        await agent(101),
        fixtureHttp("qemu_agent_network.GET.500.vm-not-running.http"),
      );
      expectSameAsFixture(
        await agent(102),
        fixtureHttp("qemu_agent_network.GET.500.qga-command-failed.http"),
      );
      expectSameAsFixture(
        await agent(103),
        fixtureHttp("qemu_agent_network.GET.500.no-agent-configured.http"),
      );
    } finally {
      await admin.close();
    }
  });

  it.each(["network-get-interfaces", "get-host-name", "get-osinfo"])(
    "a silent agent on 9.1 is 500 with the message in the body (%s)",
    async (command) => {
      // Every agent command is checked the same way before it reaches the guest (qemu-server).
      expectSameAsFixture(
        await get("9.1", `/nodes/pve/qemu/104/agent/${command}`),
        fixtureHttp("qemu_agent_network.GET.500.agent-not-running.pve9.http"),
      );
    },
  );

  it.each(["get-host-name", "get-osinfo"])(
    "an auditor's %s on 7.4 is 403 naming VM.Monitor, as the 7.4 schema checks",
    async (command) => {
      const response = await get("7.4", `/nodes/pve/qemu/104/agent/${command}`);
      expect(response.status).toBe(403);
      expect(response.reason).toBe("Permission check failed (/vms/104, VM.Monitor)");
    },
  );

  it("a failed login is 401 authentication failure, message in the body only on newer releases", async () => {
    const login = (version: PveVersion) =>
      call(`${standin(version).apiUrl}/access/ticket`, {
        method: "POST",
        ca: standin(version).caPem,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "username=root@pam&password=nope",
      });
    expectSameAsFixture(await login("7.4"), fixtureHttp("access_ticket.POST.401.pve-lt-8.3.http"));
    expectSameAsFixture(await login("9.1"), fixtureHttp("access_ticket.POST.401.pve-ge-8.3.http"));
  });

  it("an auditor's agent read on 7.4 is 403 naming VM.Monitor, shaped like the recorded 403", async () => {
    const response = await get("7.4", "/nodes/pve/qemu/104/agent/network-get-interfaces");
    const fixture = fixtureHttp("qemu_config.GET.403.pve-lt-8.3.http");
    expect(response.reason).toBe("Permission check failed (/vms/104, VM.Monitor)");
    expect(response.body).toBe(fixture.body);
    expect(response.headers.map(([k]) => k.toLowerCase()).sort()).toEqual(
      fixture.headers.map(([k]) => k.toLowerCase()).sort(),
    );
  });
});
