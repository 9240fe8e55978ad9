// The client against a local HTTPS Director: logins, paging by count, sections, edge gateways,
// version negotiation and the always-logout rule.
import { type HyperError, type HyperLogger, isHyperError } from "@hyperlens/hyper-http";
import { afterEach, describe, expect, it } from "vitest";
import { VCD_ALLOWED_WRITES } from "./allowed-writes.ts";
import { createVcdClient, type VcdClient } from "./client.ts";
import {
  type FakeVcdOptions,
  type FakeVcdServer,
  fakeVmHref,
  fakeVmMac,
  PROVIDER,
  startFakeVcd,
  TENANT,
} from "./testing/fake-vcd-server.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  server: FakeVcdServer;
  client: VcdClient;
  warnings: Record<string, unknown>[];
}

async function setup(
  options: FakeVcdOptions = {},
  credentials = TENANT,
  apiVersion?: string,
): Promise<Setup> {
  const server = await startFakeVcd(options);
  const warnings: Record<string, unknown>[] = [];
  const logger: HyperLogger = { info() {}, warn: (entry) => warnings.push(entry) };
  const client = createVcdClient({
    http: {
      connectionId: "vcd-1",
      baseUrl: server.url,
      caPem: server.caPem,
      // The stand-in listens on loopback, which hyper-http refuses unless told otherwise.
      allowLoopbackTargets: true,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
      logger,
    },
    credentials,
    ...(apiVersion ? { apiVersion } : {}),
  });
  cleanups.push(() => server.close());
  cleanups.push(() => client.close());
  return { server, client, warnings };
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

function pagesAsked(server: FakeVcdServer, path = "/api/query"): string[] {
  return server.requests
    .filter((r) => r.url.startsWith(path))
    .map((r) => new URL(r.url, "https://x").searchParams.get("page") ?? "");
}

describe("login", () => {
  it("a tenant logs in at /sessions with Basic user@org, then reads with the bearer token", async () => {
    const { server, client } = await setup({ vmCount: 1 });
    const session = await client.login();
    expect(session.orgName).toBe("acme");
    expect(session.id).toMatch(/^urn:vcloud:session:/);
    const login = server.requests[0];
    expect(login?.method).toBe("POST");
    expect(login?.url).toBe("/cloudapi/1.0.0/sessions");
    expect(login?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${TENANT.username}:${TENANT.password}`).toString("base64")}`,
    );
    expect(login?.headers.accept).toBe("application/json;version=38.0");
    await client.vmQueryPage(1);
    const read = server.requests[1];
    expect(read?.headers.authorization).toMatch(/^Bearer jwt\./);
    expect(read?.headers.accept).toBe("application/*+xml;version=38.0");
  });

  it("a provider administrator (user@System) logs in at /sessions/provider and queries adminVM", async () => {
    const { server, client } = await setup({ vmCount: 2 }, PROVIDER);
    await client.login();
    expect(server.requests[0]?.url).toBe("/cloudapi/1.0.0/sessions/provider");
    const page = await client.vmQueryPage(1);
    expect(server.requests[1]?.url).toContain("type=adminVM");
    expect(page.vms[0]).toMatchObject({ moref: "vm-1000" });
  });

  it("a wrong password is an auth error that says how Director names users", async () => {
    const { client, server } = await setup({}, { ...TENANT, password: "wrong" });
    const error = await rejection(client.login());
    expect(error.errorClass).toBe("auth");
    expect(error.message).toMatch(/user@org/);
    expect(error.message).not.toContain("wrong");
    expect(server.logins).toBe(0);
  });

  it("negotiates the API version after a 406: reads /api/versions and retries once", async () => {
    const { server, client } = await setup({ versions: ["36.0", "37.0", "37.2"] });
    await client.login();
    expect(client.apiVersion).toBe("37.2");
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /cloudapi/1.0.0/sessions",
      "GET /api/versions",
      "POST /cloudapi/1.0.0/sessions",
    ]);
    expect(server.requests[2]?.headers.accept).toBe("application/json;version=37.2");
    await client.vmQueryPage(1);
    expect(server.requests[3]?.headers.accept).toBe("application/*+xml;version=37.2");
  });

  it("a server offering no version from 37 to 39 is refused with the versions it offers", async () => {
    const { server, client } = await setup({ versions: ["33.0", "36.0", "40.0"] });
    const error = await rejection(client.login());
    expect(error.message).toMatch(/offers: 33\.0, 36\.0, 40\.0/);
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("a read without a session is refused before sending", async () => {
    const { server, client } = await setup();
    const error = await rejection(client.vmQueryPage(1));
    expect(error.errorClass).toBe("config");
    expect(server.requests).toHaveLength(0);
  });

  it("an expired token is renewed once by logging in again", async () => {
    const { server, client } = await setup({ vmCount: 1 });
    await client.login();
    server.expireTokens();
    await client.vmQueryPage(1);
    expect(server.logins).toBe(2);
  });

  it("a read still on the wire when the session ends does not log in again after its 401", async () => {
    const { server, client } = await setup({ vmCount: 1 });
    let late: Promise<unknown> = Promise.resolve();
    const failed = client.withSession(async () => {
      late = client.vmQueryPage(1).catch((error: unknown) => error);
      server.expireTokens();
      throw new Error("a sibling read failed");
    });
    await expect(failed).rejects.toThrow("a sibling read failed");
    await late;
    // No second session: the expired one is all there is, and it ends on its own.
    expect(server.logins).toBe(1);
  });

  it("declares only the session POSTs and the session DELETE as writes", () => {
    const allowed = (method: string, path: string) =>
      VCD_ALLOWED_WRITES.some((w) => w.method === method && w.pathPattern.test(path));
    expect(allowed("POST", "/cloudapi/1.0.0/sessions")).toBe(true);
    expect(allowed("POST", "/cloudapi/1.0.0/sessions/provider")).toBe(true);
    expect(allowed("DELETE", "/cloudapi/1.0.0/sessions/urn:vcloud:session:1f6a0a14-9f6e")).toBe(
      true,
    );
    expect(allowed("DELETE", "/cloudapi/1.0.0/sessions/current")).toBe(true);
    expect(allowed("DELETE", "/cloudapi/1.0.0/sessions/provider")).toBe(false);
    expect(allowed("POST", "/api/sessions")).toBe(false);
    expect(allowed("POST", "/api/vApp/vm-1/power/action/powerOff")).toBe(false);
  });
});

describe("withSession always logs out (docs/behaviour.md §4 step 5)", () => {
  it("after success", async () => {
    const { server, client } = await setup({ vmCount: 3 });
    const listing = await client.withSession(() => client.listVms());
    expect(listing.vms).toHaveLength(3);
    expect(server.logins).toBe(1);
    expect(server.logouts).toBe(1);
    expect(server.openSessions.size).toBe(0);
    const logout = server.requests.at(-1);
    expect(logout?.method).toBe("DELETE");
    expect(logout?.url).toMatch(/^\/cloudapi\/1\.0\.0\/sessions\/urn:vcloud:session:/);
  });

  it("after a failure part-way, and the real error is the one thrown", async () => {
    const { server, client } = await setup({ vmCount: 60, failVmPage: 2 });
    const error = await rejection(client.withSession(() => client.listVms()));
    expect(error.errorClass).toBe("transient");
    expect(error.message).toMatch(/query page broke/);
    expect(server.openSessions.size).toBe(0);
    expect(server.logouts).toBe(1);
  });

  it("a failing logout is logged, not thrown over the result", async () => {
    const { server, client, warnings } = await setup({ vmCount: 1, logoutStatus: 500 });
    const listing = await client.withSession(() => client.listVms());
    expect(listing.vms).toHaveLength(1);
    expect(warnings.some((w) => String(w.msg).includes("logout failed"))).toBe(true);
    expect(server.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  it("nested sessions share one login and log out once", async () => {
    const { server, client } = await setup({ vmCount: 1 });
    await client.withSession(() => client.withSession(() => client.listVms()));
    expect(server.logins).toBe(1);
    expect(server.logouts).toBe(1);
  });

  it("close() logs out a session left open", async () => {
    const { server, client } = await setup();
    await client.login();
    await client.close();
    expect(server.openSessions.size).toBe(0);
  });
});

describe("VM query paging (docs/behaviour.md §4 step 1)", () => {
  it("asks 128, gets 25 per page, and reads every VM by counting what arrived", async () => {
    const { server, client } = await setup({ vmCount: 120, templateCount: 3, pageCap: 25 });
    const listing = await client.withSession(() => client.listVms());
    expect(listing).toMatchObject({ total: 123, received: 123, pages: 5, isComplete: true });
    expect(listing.vms).toHaveLength(120);
    expect(pagesAsked(server)).toEqual(["1", "2", "3", "4", "5"]);
    expect(server.requests.find((r) => r.url.startsWith("/api/query"))?.url).toContain(
      "pageSize=128",
    );
  });

  it("a short page is not the last: the read goes on until the count reaches total", async () => {
    const { server, client } = await setup({ vmCount: 60, pageLayout: [25, 10, 25] });
    const listing = await client.withSession(() => client.listVms());
    expect(listing.vms).toHaveLength(60);
    expect(listing.isComplete).toBe(true);
    expect(pagesAsked(server)).toEqual(["1", "2", "3"]);
  });

  it("an empty page ends the read; fewer VMs than total is not a complete read", async () => {
    const { server, client } = await setup({ vmCount: 60, pageLayout: [25, 25, 0, 10] });
    const listing = await client.withSession(() => client.listVms());
    // Read once more in case the list changed meanwhile, then given up on.
    expect(pagesAsked(server)).toEqual(["1", "2", "3", "1", "2", "3"]);
    expect(listing.vms).toHaveLength(50);
    expect(listing.isComplete).toBe(false);
    expect(listing.reason).toMatch(/60 VMs.*50 distinct/);
  });

  it("a failed page rejects: nothing is returned that could look like a shorter list", async () => {
    const { client } = await setup({ vmCount: 60, failVmPage: 3 });
    const error = await rejection(client.withSession(() => client.listVms()));
    expect(error.status).toBe(500);
  });
});

describe("VM sections", () => {
  it("reads NICs and disks from the VM's href path, never its host", async () => {
    const { server, client } = await setup({ vmCount: 2 });
    await client.withSession(async () => {
      const section = await client.networkConnectionSection(fakeVmHref(1));
      expect(section.connections[0]).toMatchObject({ mac: fakeVmMac(1), ipAddress: "10.0.0.1" });
      const disks = await client.disks(fakeVmHref(1));
      expect(disks).toEqual([expect.objectContaining({ capacityMiB: 10241 })]);
    });
    const urls = server.requests.filter((r) => r.method === "GET").map((r) => r.url);
    expect(urls).toEqual([
      `/api/vApp/vm-${fakeVmHref(1).split("/vm-")[1]}/networkConnectionSection/`,
      `/api/vApp/vm-${fakeVmHref(1).split("/vm-")[1]}/virtualHardwareSection/disks`,
    ]);
  });

  it("a permission error names what is missing", async () => {
    const { client } = await setup({ vmCount: 1 });
    const error = await rejection(
      client.withSession(() => client.networkConnectionSection(fakeVmHref(7))),
    );
    expect(error.errorClass).toBe("permission");
    expect(error.message).toMatch(/VAPP_VIEW/);
  });
});

describe("edge gateways (docs/behaviour.md §4 step 4)", () => {
  it("reads all 3 pages the API reports", async () => {
    const { server, client } = await setup({ edgeGatewayCount: 7, edgePageCap: 3 });
    const listing = await client.withSession(() => client.listEdgeGateways());
    expect(listing.gateways).toHaveLength(7);
    expect(listing.isComplete).toBe(true);
    expect(pagesAsked(server, "/cloudapi/1.0.0/edgeGateways")).toEqual(["1", "2", "3"]);
    expect(server.requests[1]?.headers.accept).toBe("application/json;version=38.0");
    expect(listing.gateways.map((g) => g.ownerType)).toContain("VDC_GROUP");
  });

  it("without pageCount, pages are computed from resultTotal / pageSize (and the Link header)", async () => {
    const { server, client } = await setup({
      edgeGatewayCount: 7,
      edgePageCap: 3,
      omitPageCount: true,
    });
    const listing = await client.withSession(() => client.listEdgeGateways());
    expect(listing.gateways).toHaveLength(7);
    expect(pagesAsked(server, "/cloudapi/1.0.0/edgeGateways")).toEqual(["1", "2", "3"]);
  });

  it("a failed page rejects", async () => {
    const { client } = await setup({ edgeGatewayCount: 7, edgePageCap: 3, failEdgePage: 2 });
    const error = await rejection(client.withSession(() => client.listEdgeGateways()));
    expect(error.message).toMatch(/edge page broke/);
  });
});
