// The client against the Director stand-in: logins, paging by count, sections, edge gateways,
// version negotiation and the always-logout rule. What the client put on the wire (headers) is
// recorded by its dispatcher, since the stand-in's request log keeps no headers.
import { type HyperError, type HyperLogger, isHyperError } from "@hyperlens/hyper-http";
import { recordingDispatcher, type SentRequest } from "@hyperlens/hyper-http/testing";
import { errorText, serverText } from "@hyperlens/shared";
import {
  createVcdStandin,
  type VcdStandin,
  type VcdStandinOptions,
} from "@hyperlens/standins/testing";
import { afterEach, describe, expect, it } from "vitest";
import { VCD_ALLOWED_WRITES } from "./allowed-writes.ts";
import { createVcdClient, type VcdClient } from "./client.ts";
import {
  type AcmeDirectorSize,
  acmeDirector,
  acmeVmId,
  acmeVmIp,
  acmeVmMac,
  failEdgeGatewayPage,
  failQueryPage,
  misreportQueryPages,
  PROVIDER,
  TENANT,
} from "./testing/index.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  standin: VcdStandin;
  client: VcdClient;
  sent: SentRequest[];
  warnings: Record<string, unknown>[];
}

async function setup(
  inventory: AcmeDirectorSize = {},
  options: VcdStandinOptions = {},
  credentials = TENANT,
  apiVersion?: string,
): Promise<Setup> {
  const standin = await createVcdStandin({ model: acmeDirector(inventory), ...options });
  cleanups.push(() => standin.close());
  const { dispatcher, sent } = recordingDispatcher(standin.caPem);
  cleanups.push(() => dispatcher.close());
  const warnings: Record<string, unknown>[] = [];
  const logger: HyperLogger = { info() {}, warn: (entry) => warnings.push(entry) };
  const client = createVcdClient({
    http: {
      connectionId: "vcd-1",
      baseUrl: standin.url,
      caPem: standin.caPem,
      dispatcher,
      // The stand-in listens on loopback, which hyper-http refuses unless told otherwise.
      allowLoopbackTargets: true,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
      logger,
    },
    credentials,
    ...(apiVersion ? { apiVersion } : {}),
  });
  cleanups.push(() => client.close());
  return { standin, client, sent, warnings };
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

function pagesAsked(standin: VcdStandin, path = "/api/query"): string[] {
  return standin.requests
    .filter((r) => r.path === path)
    .map((r) => new URLSearchParams(r.query).get("page") ?? "");
}

const logins = (standin: VcdStandin) => standin.sessions.length;
const logouts = (standin: VcdStandin) => standin.sessions.filter((s) => s.closed).length;

/** A VM's href on Director's public address, which is not the stand-in's. */
const publicVmHref = (n: number) => `https://vcd.example.com/api/vApp/vm-${acmeVmId(n)}`;

describe("login", () => {
  it("a tenant logs in at /sessions with Basic user@org, then reads with the bearer token", async () => {
    const { sent, client } = await setup({ vms: 1 });
    const session = await client.login();
    expect(session.orgName).toBe("acme");
    expect(session.id).toMatch(/^urn:vcloud:session:/);
    const login = sent[0];
    expect(login?.method).toBe("POST");
    expect(login?.path).toBe("/cloudapi/1.0.0/sessions");
    expect(login?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${TENANT.username}:${TENANT.password}`).toString("base64")}`,
    );
    expect(login?.headers.accept).toBe("application/json;version=38.0");
    await client.vmQueryPage(1);
    const read = sent[1];
    expect(read?.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(read?.headers.accept).toBe("application/*+xml;version=38.0");
  });

  it("a provider administrator (user@System) logs in at /sessions/provider and queries adminVM", async () => {
    const { sent, client } = await setup({ vms: 2 }, {}, PROVIDER);
    await client.login();
    expect(sent[0]?.path).toBe("/cloudapi/1.0.0/sessions/provider");
    const page = await client.vmQueryPage(1);
    expect(sent[1]?.path).toContain("type=adminVM");
    expect(page.vms[0]).toMatchObject({ moref: "vm-1000" });
  });

  it("a wrong password is an auth error that says how Director names users", async () => {
    const { client, standin } = await setup({}, {}, { ...TENANT, password: "wrong" });
    const error = await rejection(client.login());
    expect(error.errorClass).toBe("auth");
    expect(error.message).toMatch(/user@org/);
    expect(error.message).not.toContain("wrong");
    expect(logins(standin)).toBe(0);
    // docs/behaviour.md §11.4: the door's frame and Director's advice, both as codes.
    expect(errorText(error)).toMatchObject({
      code: "hyperFailureHint",
      params: {
        failure: { code: "hyperLoginRefused" },
        hint: serverText("vcdLoginHintTenant", {}),
      },
    });
  });

  it("negotiates the API version after a 406: reads /api/versions and retries once", async () => {
    const { standin, sent, client } = await setup(
      {},
      { apiVersions: { min: "36.0", max: "37.2" } },
    );
    await client.login();
    expect(client.apiVersion).toBe("37.2");
    expect(standin.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /cloudapi/1.0.0/sessions",
      "GET /api/versions",
      "POST /cloudapi/1.0.0/sessions",
    ]);
    expect(sent[2]?.headers.accept).toBe("application/json;version=37.2");
    await client.vmQueryPage(1);
    expect(sent[3]?.headers.accept).toBe("application/*+xml;version=37.2");
  });

  it("a server offering no version from 37 to 39 is refused with the versions it offers", async () => {
    const older = await setup({}, { apiVersions: { min: "33.0", max: "36.3" } });
    const error = await rejection(older.client.login());
    expect(error.message).toMatch(/offers: 33\.0, 34\.0, 35\.0, 35\.2, 36\.0, 36\.1, 36\.2, 36\.3/);
    expect(older.standin.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    const newer = await setup({}, { apiVersions: { min: "40.0", max: "40.0" } });
    const newerError = await rejection(newer.client.login());
    expect(newerError.message).toMatch(/offers: 40\.0/);
    expect(errorText(newerError)).toEqual(
      serverText("vcdNoApiVersion", { asked: "38.0", minApi: "37", maxApi: "39", offered: "40.0" }),
    );
    expect(newer.standin.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("a read without a session is refused before sending", async () => {
    const { standin, sent, client } = await setup();
    const error = await rejection(client.vmQueryPage(1));
    expect(error.errorClass).toBe("config");
    expect(errorText(error)).toMatchObject({ code: "hyperNoSession" });
    expect(sent).toHaveLength(0);
    expect(standin.requests).toHaveLength(0);
  });

  it("an expired token is renewed once by logging in again", async () => {
    const { standin, client } = await setup({ vms: 1 });
    await client.login();
    standin.expireAllSessions();
    await client.vmQueryPage(1);
    expect(logins(standin)).toBe(2);
  });

  it("a read still on the wire when the session ends does not log in again after its 401", async () => {
    const { standin, client } = await setup({ vms: 1 });
    let late: Promise<unknown> = Promise.resolve();
    const failed = client.withSession(async () => {
      late = client.vmQueryPage(1).catch((error: unknown) => error);
      standin.expireAllSessions();
      throw new Error("a sibling read failed");
    });
    await expect(failed).rejects.toThrow("a sibling read failed");
    await late;
    // No second session: the expired one is all there is, and it ends on its own.
    expect(logins(standin)).toBe(1);
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
    const { standin, client } = await setup({ vms: 3 });
    const listing = await client.withSession(() => client.listVms());
    expect(listing.vms).toHaveLength(3);
    expect(logins(standin)).toBe(1);
    expect(logouts(standin)).toBe(1);
    expect(standin.openSessions).toBe(0);
    const logout = standin.requests.at(-1);
    expect(logout?.method).toBe("DELETE");
    expect(logout?.status).toBe(204);
    expect(logout?.path).toMatch(/^\/cloudapi\/1\.0\.0\/sessions\/urn:vcloud:session:/);
  });

  it("after a failure part-way, and the real error is the one thrown", async () => {
    const { standin, client } = await setup({ vms: 60 }, { maxPageSize: 25 });
    failQueryPage(standin, 2, "query page broke");
    const error = await rejection(client.withSession(() => client.listVms()));
    expect(error.errorClass).toBe("transient");
    expect(error.message).toMatch(/query page broke/);
    expect(standin.openSessions).toBe(0);
    expect(logouts(standin)).toBe(1);
  });

  it("a failing logout is logged, not thrown over the result", async () => {
    const { standin, client, warnings } = await setup({ vms: 1 });
    standin.faults.fail("/cloudapi/1.0.0/sessions/*", 500, {
      method: "DELETE",
      headers: { "Content-Type": "application/json;version=38.0" },
      body: JSON.stringify({ minorErrorCode: "INTERNAL", message: "logout broke" }),
    });
    const listing = await client.withSession(() => client.listVms());
    expect(listing.vms).toHaveLength(1);
    expect(warnings.some((w) => String(w.msg).includes("logout failed"))).toBe(true);
    expect(standin.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  it("nested sessions share one login and log out once", async () => {
    const { standin, client } = await setup({ vms: 1 });
    await client.withSession(() => client.withSession(() => client.listVms()));
    expect(logins(standin)).toBe(1);
    expect(logouts(standin)).toBe(1);
  });

  it("close() logs out a session left open", async () => {
    const { standin, client } = await setup();
    await client.login();
    await client.close();
    expect(logins(standin)).toBe(1);
    expect(standin.openSessions).toBe(0);
  });
});

describe("VM query paging (docs/behaviour.md §4 step 1)", () => {
  it("asks 128, gets 25 per page, and reads every VM by counting what arrived", async () => {
    const { standin, sent, client } = await setup({ vms: 120, templates: 3 }, { maxPageSize: 25 });
    const listing = await client.withSession(() => client.listVms());
    expect(listing).toMatchObject({ total: 123, received: 123, pages: 5, isComplete: true });
    expect(listing.vms).toHaveLength(120);
    expect(pagesAsked(standin)).toEqual(["1", "2", "3", "4", "5"]);
    expect(sent.find((r) => r.path.startsWith("/api/query"))?.path).toContain("pageSize=128");
  });

  it("a short page is not the last: the read goes on until the count reaches total", async () => {
    // Pages of 25: page 2 holds 10 of its 25 (the rest hidden from this user), and total says 45.
    const { standin, client } = await setup({ vms: 60 }, { maxPageSize: 25 });
    misreportQueryPages(standin, { total: 45, recordsOnPage: { 2: 10 } });
    const listing = await client.withSession(() => client.listVms());
    expect(listing.vms).toHaveLength(45);
    expect(listing.isComplete).toBe(true);
    expect(pagesAsked(standin)).toEqual(["1", "2", "3"]);
  });

  it("an empty page ends the read; fewer VMs than total is not a complete read", async () => {
    // 50 VMs in pages of 25, but every page reports 60: page 3 comes back empty.
    const { standin, client } = await setup({ vms: 50 }, { maxPageSize: 25 });
    misreportQueryPages(standin, { total: 60 });
    const listing = await client.withSession(() => client.listVms());
    // Read once more in case the list changed meanwhile, then given up on.
    expect(pagesAsked(standin)).toEqual(["1", "2", "3", "1", "2", "3"]);
    expect(listing.vms).toHaveLength(50);
    expect(listing.isComplete).toBe(false);
    expect(listing.reason).toMatch(/60 VMs.*50 distinct/);
  });

  it("a failed page rejects: nothing is returned that could look like a shorter list", async () => {
    const { standin, client } = await setup({ vms: 60 }, { maxPageSize: 25 });
    failQueryPage(standin, 3, "query page broke");
    const error = await rejection(client.withSession(() => client.listVms()));
    expect(error.status).toBe(500);
  });
});

describe("VM sections", () => {
  it("reads NICs and disks from the VM's href path, never its host", async () => {
    const { sent, client } = await setup({ vms: 2 });
    await client.withSession(async () => {
      const section = await client.networkConnectionSection(publicVmHref(1));
      expect(section.connections[0]).toMatchObject({ mac: acmeVmMac(1), ipAddress: acmeVmIp(1) });
      const disks = await client.disks(publicVmHref(1));
      expect(disks).toEqual([expect.objectContaining({ capacityMiB: 10241 })]);
    });
    const paths = sent.filter((r) => r.method === "GET").map((r) => r.path);
    expect(paths).toEqual([
      `/api/vApp/vm-${acmeVmId(1)}/networkConnectionSection/`,
      `/api/vApp/vm-${acmeVmId(1)}/virtualHardwareSection/disks`,
    ]);
  });

  it("a permission error names what is missing", async () => {
    const { client } = await setup({ vms: 1 });
    const error = await rejection(
      client.withSession(() => client.networkConnectionSection(publicVmHref(7))),
    );
    expect(error.errorClass).toBe("permission");
    expect(error.message).toMatch(/VAPP_VM_VIEW/);
  });
});

describe("edge gateways (docs/behaviour.md §4 step 4)", () => {
  it("reads all 3 pages the API reports", async () => {
    const { standin, sent, client } = await setup(
      { edgeGateways: 7 },
      { edgeGatewayMaxPageSize: 3 },
    );
    const listing = await client.withSession(() => client.listEdgeGateways());
    expect(listing.gateways).toHaveLength(7);
    expect(listing.isComplete).toBe(true);
    expect(pagesAsked(standin, "/cloudapi/1.0.0/edgeGateways")).toEqual(["1", "2", "3"]);
    expect(sent[1]?.headers.accept).toBe("application/json;version=38.0");
    expect(listing.gateways.map((g) => g.ownerType)).toContain("VDC_GROUP");
  });

  it("without pageCount, pages are computed from resultTotal / pageSize (and the Link header)", async () => {
    const { standin, client } = await setup(
      { edgeGateways: 7 },
      { edgeGatewayMaxPageSize: 3, omitEdgeGatewayPageCount: true },
    );
    const listing = await client.withSession(() => client.listEdgeGateways());
    expect(listing.gateways).toHaveLength(7);
    expect(pagesAsked(standin, "/cloudapi/1.0.0/edgeGateways")).toEqual(["1", "2", "3"]);
  });

  it("a failed page rejects", async () => {
    const { standin, client } = await setup({ edgeGateways: 7 }, { edgeGatewayMaxPageSize: 3 });
    failEdgeGatewayPage(standin, 2, "edge page broke");
    const error = await rejection(client.withSession(() => client.listEdgeGateways()));
    expect(error.message).toMatch(/edge page broke/);
  });
});
