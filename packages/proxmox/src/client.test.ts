// The Proxmox client against the Proxmox stand-in: logins, tickets and every read over real HTTPS.
// Recorded error answers (fixtures/proxmox/errors) are played through the stand-in's fault
// switches; what the client put on the wire is recorded by its dispatcher.
import { type HyperError, isHyperError } from "@hyperlens/hyper-http";
import {
  type HttpFixture,
  recordingDispatcher,
  type SentRequest,
} from "@hyperlens/hyper-http/testing";
import { errorText, serverText } from "@hyperlens/shared";
import {
  agentInterface,
  createProxmoxStandin,
  lxcGuest,
  type ProxmoxStandin,
  type ProxmoxStandinOptions,
  proxmoxNode,
  qemuGuest,
  type RawReply,
} from "@hyperlens/standins/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createProxmoxClient, type ProxmoxAuth } from "./client.ts";
import { readFixtureText, readHttpFixture } from "./testing/fixtures.ts";
import { tokenAuthorization } from "./token-auth.ts";

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const TOKEN: ProxmoxAuth = {
  kind: "token",
  tokenId: "hyperlens@pve!ro",
  secret: "0d1f4a5c-token-secret",
};
const PASSWORD: ProxmoxAuth = { kind: "password", username: "root@pam", password: "s3cret-pass" };

/** The stand-in's accounts: the token and the user above, both PVEAuditor on `/`. */
const ACCOUNTS = {
  tokens: [{ id: "hyperlens@pve!ro", secret: "0d1f4a5c-token-secret", role: "auditor" as const }],
  users: [{ username: "root@pam", password: "s3cret-pass", role: "auditor" as const }],
};

/** One online node with two VMs and a container, and one offline node. */
function readCluster() {
  return {
    name: "clustername",
    nodes: [
      proxmoxNode({ name: "testnode" }, 0),
      proxmoxNode({ name: "testnode2", online: false }, 1),
    ],
    guests: [
      qemuGuest({ vmid: 101, name: "db", node: "testnode" }),
      qemuGuest({
        vmid: 100,
        name: "web",
        node: "testnode",
        nics: [{ mac: "BC:24:11:AA:00:01", guestName: "eth0", guestIps: ["10.0.0.10/24"] }],
        extraAgentInterfaces: [agentInterface("docker0", "02:42:ac:11:00:01", ["172.17.0.1/16"])],
      }),
      lxcGuest({
        vmid: 106,
        name: "ct",
        node: "testnode",
        nics: [{ name: "eth0", mac: "BC:24:11:BB:00:01", ip: "10.0.1.5/24" }],
      }),
    ],
  };
}

/** A recorded raw answer (`errors/*.http`), as a fault switch's reply. */
function recorded(relative: string): RawReply {
  const fixture: HttpFixture = readHttpFixture(relative);
  return {
    status: fixture.status,
    reason: fixture.reason,
    ...(fixture.headers["content-type"] ? { contentType: fixture.headers["content-type"] } : {}),
    body: fixture.body,
  };
}

async function setup(
  auth: ProxmoxAuth,
  options: ProxmoxStandinOptions = {},
  clock?: () => number,
): Promise<{
  standin: ProxmoxStandin;
  client: ReturnType<typeof createProxmoxClient>;
  sent: SentRequest[];
}> {
  const standin = await createProxmoxStandin({
    version: "9.1",
    cluster: readCluster(),
    ...ACCOUNTS,
    ...options,
  });
  closers.push(() => standin.close());
  const { dispatcher, sent } = recordingDispatcher(standin.caPem);
  closers.push(() => dispatcher.close());
  const client = createProxmoxClient({
    http: {
      connectionId: "pve-1",
      baseUrl: standin.url,
      caPem: standin.caPem,
      dispatcher,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    },
    auth,
    ...(clock ? { clock } : {}),
  });
  closers.push(() => client.close());
  return { standin, client, sent };
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

/** The part of a ticket that names its user and issue time (the rest is random). */
const ticketStamp = (ms: number) =>
  `PVE:root@pam:${Math.floor(ms / 1000)
    .toString(16)
    .toUpperCase()
    .padStart(8, "0")}::`;
const cookieStamp = (request: SentRequest) =>
  /^PVEAuthCookie=(PVE:[^:]+:[0-9A-F]+::)/.exec(request.headers.cookie ?? "")?.[1] ?? "";

describe("API token login", () => {
  it("sends the PVEAPIToken header on every call, never logs in, and reads a whole inventory with GETs only", async () => {
    const { client, sent } = await setup(TOKEN);
    expect((await client.version()).major).toBe(9);
    const nodes = await client.nodes();
    expect(nodes.map((n) => n.status)).toEqual(["online", "offline"]);
    expect((await client.clusterStatus()).clusterName).toBe("clustername");
    expect((await client.qemuList("testnode")).map((g) => g.vmid)).toEqual([100, 101]);
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
    const permissions = await client.permissions();
    expect(permissions["/"]).toMatchObject({ "VM.Audit": true });
    // Proxmox answers 1 for a held privilege, on every path: each one reads as true.
    const held = Object.values(permissions).flatMap((privileges) => Object.values(privileges));
    expect(new Set(held)).toEqual(new Set([true]));

    expect(sent.length).toBe(10);
    for (const request of sent) {
      expect(request.method).toBe("GET");
      expect(request.headers.authorization).toBe(
        "PVEAPIToken=hyperlens@pve!ro=0d1f4a5c-token-secret",
      );
      expect(request.headers.cookie).toBeUndefined();
    }
  });

  it("a rejected token is an auth failure after one request", async () => {
    const { client, sent } = await setup({ ...TOKEN, secret: "not-the-secret" });
    const error = await rejection(client.nodes());
    expect(error.errorClass).toBe("auth");
    expect(error.message).toContain("Authentication failed!");
    expect(error.message).not.toContain("not-the-secret");
    expect(sent).toHaveLength(1);
  });

  it("refuses a token id without user@realm!name before sending anything", () => {
    expect(() =>
      createProxmoxClient({
        http: { connectionId: "x", baseUrl: "https://127.0.0.1:1" },
        auth: { kind: "token", tokenId: "root@pam", secret: "abc" },
      }),
    ).toThrow(/user@realm!tokenname/);
  });

  it("says why a token is refused as a code (docs/behaviour.md §11.4)", () => {
    const refusal = (tokenId: string, secret: string) => {
      try {
        tokenAuthorization(tokenId, secret);
      } catch (error) {
        return errorText(error);
      }
      return undefined;
    };
    expect(refusal("root@pam", "abc")).toEqual(
      serverText("proxmoxTokenIdShape", { tokenId: "root@pam" }),
    );
    expect(refusal("a@pve!ro", "has space")).toEqual(serverText("proxmoxTokenSecretInvalid", {}));
  });
});

describe("ticket login", () => {
  it("posts the form-encoded login once, then sends the ticket as PVEAuthCookie", async () => {
    const now = Date.UTC(2023, 7, 19, 12, 0, 0);
    const { client, sent } = await setup(PASSWORD, { now: () => now }, () => now);
    await client.nodes();
    await client.qemuList("testnode");
    const [login, ...reads] = sent;
    expect(login?.method).toBe("POST");
    expect(login?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(login?.body))).toEqual({
      username: "root@pam",
      password: "s3cret-pass",
    });
    expect(reads).toHaveLength(2);
    for (const read of reads) {
      expect(cookieStamp(read)).toBe(ticketStamp(now));
      expect(read.headers.authorization).toBeUndefined();
    }
  });

  it("logs in again once on a 401 and retries the call with the new ticket", async () => {
    const fourNodes = readCluster();
    fourNodes.nodes.push(proxmoxNode({ name: "node3" }, 2), proxmoxNode({ name: "node4" }, 3));
    const { standin, client, sent } = await setup(PASSWORD, { cluster: fourNodes });
    // The first read meets a ticket the server no longer takes (e.g. after a restart).
    standin.faults.reply("/nodes", recorded("errors/any.GET.401.bad-ticket-or-token.http"), {
      method: "GET",
      nth: 1,
    });
    expect(await client.nodes()).toHaveLength(4);
    expect(sent.map((r) => r.method)).toEqual(["POST", "GET", "POST", "GET"]);
    expect(standin.requests.map((r) => r.status)).toEqual([200, 401, 200, 200]);
    expect(sent[3]?.headers.cookie).not.toBe(sent[1]?.headers.cookie);
  });

  it("fails as auth when the fresh ticket is refused too, without a login loop", async () => {
    const { standin, client, sent } = await setup(PASSWORD);
    standin.faults.reply("/nodes", recorded("errors/any.GET.401.bad-ticket-or-token.http"), {
      method: "GET",
    });
    const error = await rejection(client.nodes());
    expect(error.errorClass).toBe("auth");
    expect(sent.map((r) => r.method)).toEqual(["POST", "GET", "POST", "GET"]);
  });

  it("renews the ticket before it expires (injectable clock), without waiting for a 401", async () => {
    const start = Date.UTC(2026, 0, 1);
    let now = start;
    const { client, sent } = await setup(PASSWORD, { now: () => now }, () => now);
    await client.nodes();
    now += 60 * 60 * 1000;
    await client.nodes();
    now += 50 * 60 * 1000; // 1 h 50 after the login: the 2 h ticket must already have been renewed
    await client.nodes();
    expect(sent.map((r) => `${r.method} ${cookieStamp(r)}`)).toEqual([
      "POST ",
      `GET ${ticketStamp(start)}`,
      `GET ${ticketStamp(start)}`,
      "POST ",
      `GET ${ticketStamp(now)}`,
    ]);
  });

  it("a wrong password is an auth failure carrying the server's words, tried once", async () => {
    // Before 8.3 the 401's body has no message; from 8.3 it carries one.
    for (const version of ["7.4", "9.1"] as const) {
      const { client, sent } = await setup({ ...PASSWORD, password: "wrong-pass" }, { version });
      const error = await rejection(client.nodes());
      expect(error.errorClass).toBe("auth");
      expect(error.serverMessage).toBe("authentication failure");
      expect(error.message).not.toContain("wrong-pass");
      expect(sent).toHaveLength(1);
    }
  });

  it("shares one login between concurrent calls", async () => {
    const { client, sent } = await setup(PASSWORD);
    await Promise.all([client.nodes(), client.version(), client.clusterStatus()]);
    expect(sent.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});

describe("guest agent answers are results, not failures", () => {
  const agentPath = "/nodes/testnode/qemu/101/agent/network-get-interfaces";
  it.each([
    ["errors/qemu_agent_network.GET.500.agent-not-running.pve9.http", "agent-not-running"],
    ["errors/qemu_agent_network.GET.500.vm-not-running.http", "vm-not-running"],
    ["errors/qemu_agent_network.GET.500.no-agent-configured.http", "agent-not-configured"],
    ["errors/qemu_agent_network.GET.500.qga-command-failed.http", "agent-error"],
    ["errors/qemu_config.GET.403.pve-lt-8.3.http", "not-permitted"],
  ])("%s → %s, asked once", async (fixture, reason) => {
    const { standin, client, sent } = await setup(TOKEN);
    standin.faults.reply(agentPath, recorded(fixture));
    const outcome = await client.qemuAgentInterfaces("testnode", 101);
    expect(outcome).toMatchObject({ kind: "unavailable", reason });
    expect(sent).toHaveLength(1);
  });

  it("an agent error inside a 200 (PVE 6) is unavailable", async () => {
    const { standin, client } = await setup(TOKEN);
    standin.faults.reply(agentPath, {
      contentType: "application/json;charset=UTF-8",
      body: readFixtureText("qemu_agent_network/GET.200.windows-unsupported-pve6.json"),
    });
    expect(await client.qemuAgentInterfaces("testnode", 101)).toMatchObject({
      kind: "unavailable",
      reason: "agent-error",
    });
  });

  it("a 595 (node unreachable) on the agent is a real failure", async () => {
    const { standin, client } = await setup(TOKEN);
    standin.faults.reply(agentPath, recorded("errors/proxied.GET.595.no-route.http"));
    const error = await rejection(client.qemuAgentInterfaces("testnode", 101));
    expect(error.errorClass).toBe("transient");
  });
});

describe("container interfaces", () => {
  it("a 501 before PVE 8.1 means 'not offered', not an error", async () => {
    const { client } = await setup(TOKEN, { version: "7.4" });
    expect(await client.lxcInterfaces("testnode", 106)).toEqual({ kind: "not-offered" });
  });
});

describe("errors surface with their class", () => {
  it("a 595 on a guest list is retried, then reported as transient with the reason phrase", async () => {
    const { client, sent } = await setup(TOKEN);
    const error = await rejection(client.qemuList("testnode2"));
    expect(error.errorClass).toBe("transient");
    expect(error.serverMessage).toBe("No route to host");
    expect(sent).toHaveLength(2);
  });

  it("a 403 on cluster status names the missing privilege", async () => {
    const { standin, client } = await setup(TOKEN);
    standin.faults.reply("/cluster/status", recorded("errors/cluster_status.GET.403.http"));
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
