import { type HyperError, isHyperError } from "@hyperlens/hyper-http";
import { afterEach, describe, expect, it } from "vitest";
import { createProxmoxClient, type ProxmoxAuth } from "./client.ts";
import { type FakeAnswer, type FakePveServer, startFakePve } from "./testing/fake-pve-server.ts";

const servers: FakePveServer[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const server of servers.splice(0)) await server.close();
});

const TOKEN: ProxmoxAuth = {
  kind: "token",
  tokenId: "hyperlens@pve!ro",
  secret: "0d1f4a5c-token-secret",
};
const PASSWORD: ProxmoxAuth = { kind: "password", username: "root@pam", password: "s3cret-pass" };

const READ_ROUTES: Record<string, FakeAnswer> = {
  "GET /api2/json/version": { fixture: "version/GET.200.pve9.json" },
  "GET /api2/json/nodes": { fixture: "nodes/GET.200.with-offline-node-pve6.json" },
  "GET /api2/json/cluster/status": { fixture: "cluster_status/GET.200.cluster.json" },
  "GET /api2/json/nodes/testnode/qemu": { fixture: "qemu_list/GET.200.pve8.json" },
  "GET /api2/json/nodes/testnode/lxc": { fixture: "lxc_list/GET.200.pve7-vmid-string.json" },
  "GET /api2/json/nodes/testnode/qemu/100/config": {
    fixture: "qemu_config/GET.200.agent-enabled-syntax.json",
  },
  "GET /api2/json/nodes/testnode/lxc/106/config": {
    fixture: "lxc_config/GET.200.static-ip-pve6.json",
  },
  "GET /api2/json/nodes/testnode/qemu/100/agent/network-get-interfaces": {
    fixture: "qemu_agent_network/GET.200.linux-pve6.json",
  },
  "GET /api2/json/nodes/testnode/lxc/106/interfaces": {
    fixture: "lxc_interfaces/GET.200.pve7.json",
  },
  "GET /api2/json/access/permissions": () => ({
    status: 200,
    reason: "OK",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ data: { "/": { "VM.Audit": 1 } } }),
  }),
};

async function setup(routes: Record<string, FakeAnswer>, auth: ProxmoxAuth, clock?: () => number) {
  const server = await startFakePve(routes);
  servers.push(server);
  const client = createProxmoxClient({
    http: {
      connectionId: "pve-1",
      baseUrl: server.url,
      caPem: server.caPem,
      // The stand-in listens on loopback, which hyper-http refuses unless told otherwise.
      allowLoopbackTargets: true,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    },
    auth,
    ...(clock ? { clock } : {}),
  });
  closers.push(() => client.close());
  return { server, client };
}

async function rejection(promise: Promise<unknown>): Promise<HyperError> {
  try {
    await promise;
  } catch (error) {
    if (isHyperError(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

function ticketAnswer(ticket: string) {
  return {
    status: 200,
    reason: "OK",
    headers: { "content-type": "application/json;charset=UTF-8" },
    body: JSON.stringify({ data: { ticket, CSRFPreventionToken: "X:Y", username: "root@pam" } }),
  };
}

describe("API token login", () => {
  it("sends the PVEAPIToken header on every call, never logs in, and reads a whole inventory with GETs only", async () => {
    const { server, client } = await setup(READ_ROUTES, TOKEN);
    expect((await client.version()).major).toBe(9);
    const nodes = await client.nodes();
    expect(nodes.map((n) => n.status)).toEqual(["online", "offline"]);
    expect((await client.clusterStatus()).clusterName).toBe("clustername");
    expect((await client.qemuList("testnode")).map((g) => g.vmid)).toEqual([101, 100]);
    expect((await client.lxcList("testnode"))[0]?.vmid).toBe(106);
    expect((await client.qemuConfig("testnode", 100)).isAgentEnabled).toBe(true);
    expect((await client.lxcConfig("testnode", 106)).nics[0]?.ipv4).toMatchObject({
      kind: "static",
    });
    const agent = await client.qemuAgentInterfaces("testnode", 100);
    expect(agent.kind === "ok" && agent.interfaces.map((i) => i.name)).toEqual([
      "lo",
      "eth0",
      "docker0",
    ]);
    expect((await client.lxcInterfaces("testnode", 106)).kind).toBe("ok");
    expect(await client.permissions()).toEqual({ "/": { "VM.Audit": true } });

    expect(server.requests.length).toBe(10);
    for (const request of server.requests) {
      expect(request.method).toBe("GET");
      expect(request.headers.authorization).toBe(
        "PVEAPIToken=hyperlens@pve!ro=0d1f4a5c-token-secret",
      );
      expect(request.headers.cookie).toBeUndefined();
    }
  });

  it("a rejected token is an auth failure after one request", async () => {
    const { server, client } = await setup(
      { "GET /api2/json/nodes": { http: "errors/any.GET.401.bad-ticket-or-token.http" } },
      TOKEN,
    );
    const error = await rejection(client.nodes());
    expect(error.errorClass).toBe("auth");
    expect(error.message).toContain("Authentication failed!");
    expect(error.message).not.toContain("0d1f4a5c-token-secret");
    expect(server.requests).toHaveLength(1);
  });

  it("refuses a token id without user@realm!name before sending anything", () => {
    expect(() =>
      createProxmoxClient({
        http: { connectionId: "x", baseUrl: "https://127.0.0.1:1" },
        auth: { kind: "token", tokenId: "root@pam", secret: "abc" },
      }),
    ).toThrow(/user@realm!tokenname/);
  });
});

describe("ticket login", () => {
  it("posts the form-encoded login once, then sends the ticket as PVEAuthCookie", async () => {
    const { server, client } = await setup(
      {
        ...READ_ROUTES,
        "POST /api2/json/access/ticket": { fixture: "access_ticket/POST.200.json" },
      },
      PASSWORD,
    );
    await client.nodes();
    await client.qemuList("testnode");
    const [login, ...reads] = server.requests;
    expect(login?.method).toBe("POST");
    expect(login?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(login?.body))).toEqual({
      username: "root@pam",
      password: "s3cret-pass",
    });
    expect(reads).toHaveLength(2);
    for (const read of reads) {
      expect(read.headers.cookie).toMatch(/^PVEAuthCookie=PVE:root@pam:64E10CBA::/);
      expect(read.headers.authorization).toBeUndefined();
    }
  });

  it("logs in again once on a 401 and retries the call with the new ticket", async () => {
    let issued = 0;
    const { server, client } = await setup(
      {
        "POST /api2/json/access/ticket": () => ticketAnswer(`PVE:root@pam:0000000${++issued}::sig`),
        "GET /api2/json/nodes": (req) =>
          req.headers.cookie === "PVEAuthCookie=PVE:root@pam:00000002::sig"
            ? { fixture: "nodes/GET.200.4-nodes-pve7.json" }
            : { http: "errors/any.GET.401.bad-ticket-or-token.http" },
      },
      PASSWORD,
    );
    expect(await client.nodes()).toHaveLength(4);
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "GET", "POST", "GET"]);
  });

  it("fails as auth when the fresh ticket is refused too, without a login loop", async () => {
    const { server, client } = await setup(
      {
        "POST /api2/json/access/ticket": () => ticketAnswer("PVE:root@pam:00000001::sig"),
        "GET /api2/json/nodes": { http: "errors/any.GET.401.bad-ticket-or-token.http" },
      },
      PASSWORD,
    );
    const error = await rejection(client.nodes());
    expect(error.errorClass).toBe("auth");
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "GET", "POST", "GET"]);
  });

  it("renews the ticket before it expires (injectable clock), without waiting for a 401", async () => {
    let now = Date.UTC(2026, 0, 1);
    let issued = 0;
    const { server, client } = await setup(
      {
        ...READ_ROUTES,
        "POST /api2/json/access/ticket": () => ticketAnswer(`PVE:root@pam:0000000${++issued}::sig`),
      },
      PASSWORD,
      () => now,
    );
    await client.nodes();
    now += 60 * 60 * 1000;
    await client.nodes();
    now += 50 * 60 * 1000; // 1 h 50 after the login: the 2 h ticket must already have been renewed
    await client.nodes();
    expect(server.requests.map((r) => `${r.method} ${r.headers.cookie ?? ""}`)).toEqual([
      "POST ",
      "GET PVEAuthCookie=PVE:root@pam:00000001::sig",
      "GET PVEAuthCookie=PVE:root@pam:00000001::sig",
      "POST ",
      "GET PVEAuthCookie=PVE:root@pam:00000002::sig",
    ]);
  });

  it("a wrong password is an auth failure carrying the server's words, tried once", async () => {
    for (const fixture of [
      "errors/access_ticket.POST.401.pve-lt-8.3.http",
      "errors/access_ticket.POST.401.pve-ge-8.3.http",
    ]) {
      const { server, client } = await setup(
        { "POST /api2/json/access/ticket": { http: fixture } },
        PASSWORD,
      );
      const error = await rejection(client.nodes());
      expect(error.errorClass).toBe("auth");
      expect(error.serverMessage).toBe("authentication failure");
      expect(error.message).not.toContain("s3cret-pass");
      expect(server.requests).toHaveLength(1);
    }
  });

  it("shares one login between concurrent calls", async () => {
    const { server, client } = await setup(
      {
        ...READ_ROUTES,
        "POST /api2/json/access/ticket": { fixture: "access_ticket/POST.200.json" },
      },
      PASSWORD,
    );
    await Promise.all([client.nodes(), client.version(), client.clusterStatus()]);
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});

describe("guest agent answers are results, not failures", () => {
  const agentPath = "GET /api2/json/nodes/pve/qemu/101/agent/network-get-interfaces";
  it.each([
    ["errors/qemu_agent_network.GET.500.agent-not-running.pve9.http", "agent-not-running"],
    ["errors/qemu_agent_network.GET.500.vm-not-running.http", "vm-not-running"],
    ["errors/qemu_agent_network.GET.500.no-agent-configured.http", "agent-not-configured"],
    ["errors/qemu_agent_network.GET.500.qga-command-failed.http", "agent-error"],
    ["errors/qemu_config.GET.403.pve-lt-8.3.http", "not-permitted"],
  ])("%s → %s, asked once", async (fixture, reason) => {
    const { server, client } = await setup({ [agentPath]: { http: fixture } }, TOKEN);
    const outcome = await client.qemuAgentInterfaces("pve", 101);
    expect(outcome).toMatchObject({ kind: "unavailable", reason });
    expect(server.requests).toHaveLength(1);
  });

  it("an agent error inside a 200 (PVE 6) is unavailable", async () => {
    const { client } = await setup(
      { [agentPath]: { fixture: "qemu_agent_network/GET.200.windows-unsupported-pve6.json" } },
      TOKEN,
    );
    expect(await client.qemuAgentInterfaces("pve", 101)).toMatchObject({
      kind: "unavailable",
      reason: "agent-error",
    });
  });

  it("a 595 (node unreachable) on the agent is a real failure", async () => {
    const { client } = await setup(
      { [agentPath]: { http: "errors/proxied.GET.595.no-route.http" } },
      TOKEN,
    );
    const error = await rejection(client.qemuAgentInterfaces("pve", 101));
    expect(error.errorClass).toBe("transient");
  });
});

describe("container interfaces", () => {
  it("a 501 before PVE 8.1 means 'not offered', not an error", async () => {
    const { client } = await setup({}, TOKEN);
    expect(await client.lxcInterfaces("pve", 100)).toEqual({ kind: "not-offered" });
  });
});

describe("errors surface with their class", () => {
  it("a 595 on a guest list is retried, then reported as transient with the reason phrase", async () => {
    const { server, client } = await setup(
      { "GET /api2/json/nodes/node2/qemu": { http: "errors/proxied.GET.595.no-route.http" } },
      TOKEN,
    );
    const error = await rejection(client.qemuList("node2"));
    expect(error.errorClass).toBe("transient");
    expect(error.serverMessage).toBe("No route to host");
    expect(server.requests).toHaveLength(2);
  });

  it("a 403 on cluster status names the missing privilege", async () => {
    const { client } = await setup(
      { "GET /api2/json/cluster/status": { http: "errors/cluster_status.GET.403.http" } },
      TOKEN,
    );
    const error = await rejection(client.clusterStatus());
    expect(error.errorClass).toBe("permission");
    expect(error.message).toContain("Permission check failed (/, Sys.Audit)");
  });

  it("an unreachable server is reported as unreachable on the first call (GET /nodes)", async () => {
    const client = createProxmoxClient({
      http: {
        connectionId: "x",
        baseUrl: "https://nonexistent.invalid:8006",
        retry: { attempts: 1 },
      },
      auth: TOKEN,
    });
    closers.push(() => client.close());
    const error = await rejection(client.nodes());
    expect(error.errorClass).toBe("unreachable");
    expect(error.message).toBe(
      "Could not reach the Proxmox server: could not resolve host nonexistent.invalid",
    );
  });
});
