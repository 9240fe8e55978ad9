import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closedAfterEach } from "../testing/closed-after-each.ts";
import { call, header } from "../testing/https-client.ts";
import { createVcdStandin, type VcdStandin } from "../testing/standins.ts";
import { PROVIDER, TENANT, vcdGet, vcdLogin } from "../testing/vcd-client.ts";
import { vcdFixtureHttp } from "../testing/vcd-fixtures.ts";

let standin: VcdStandin;
beforeAll(async () => {
  standin = await createVcdStandin();
});
afterAll(async () => {
  await standin.close();
});
beforeEach(() => {
  standin.expireAllSessions();
  standin.requests.length = 0;
});

/** Stand-ins of their own for the tests that configure one; the shared one serves the rest. */
const startOwn = closedAfterEach(createVcdStandin);

function login(
  path: string,
  authorization: string,
  { accept = "application/json;version=38.0", on = standin } = {},
) {
  return call(`${on.url}/cloudapi/1.0.0/${path}`, {
    method: "POST",
    ca: on.caPem,
    headers: { Authorization: authorization, Accept: accept },
  });
}

function basic(text: string): string {
  return `Basic ${Buffer.from(text).toString("base64")}`;
}

describe("CloudAPI login", () => {
  it("a tenant logs in on /sessions and gets a session body and a bearer token in the headers", async () => {
    const response = await login("sessions", standin.basicAuth(TENANT));
    expect(response.status).toBe(200);
    expect(header(response, "X-VMWARE-VCLOUD-TOKEN-TYPE")).toBe("Bearer");
    expect(header(response, "X-VMWARE-VCLOUD-ACCESS-TOKEN")).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(header(response, "Content-Type")).toBe("application/json;version=38.0");
    const body = JSON.parse(response.body) as { id: string; org: { name: string } };
    expect(body.id).toMatch(/^urn:vcloud:session:[0-9a-f-]{36}$/);
    expect(body.org.name).toBe("acme");
    expect(standin.openSessions).toBe(1);
  });

  it("a provider logs in on /sessions/provider with the System org", async () => {
    const response = await login("sessions/provider", standin.basicAuth(PROVIDER));
    expect(response.status).toBe(200);
    expect((JSON.parse(response.body) as { org: { name: string } }).org.name).toBe("System");
  });

  it("org and user names are case-insensitive, the password is not", async () => {
    expect((await login("sessions", basic("INVENTORY@ACME:standin-password"))).status).toBe(200);
    expect((await login("sessions", basic("inventory@acme:STANDIN-PASSWORD"))).status).toBe(401);
  });

  it("a bad password answers like fixtures/vcd/cloudapi_sessions/POST.401.http", async () => {
    const recorded = vcdFixtureHttp("cloudapi_sessions/POST.401.http");
    const response = await login("sessions", basic("inventory@acme:wrong"));
    expect(response.status).toBe(recorded.status);
    expect(response.body).toBe("");
    expect(header(response, "WWW-Authenticate")).toBe(header(recorded, "WWW-Authenticate"));
    expect(header(response, "Content-Type")).toBe("application/json;version=38.0");
    expect(standin.openSessions).toBe(0);
  });

  it("the wrong endpoint answers like POST.401.provider-endpoint-required, both ways", async () => {
    const recorded = vcdFixtureHttp("cloudapi_sessions/POST.401.provider-endpoint-required.http");
    for (const response of [
      await login("sessions", standin.basicAuth(PROVIDER)),
      await login("sessions/provider", standin.basicAuth(TENANT)),
    ]) {
      expect(response.status).toBe(recorded.status);
      expect(response.body).toBe("");
      expect(header(response, "WWW-Authenticate")).toBeUndefined();
    }
    expect(standin.openSessions).toBe(0);
  });

  it("a colon in the user name fails like the real server: Basic splits at the first colon", async () => {
    const s = await startOwn({
      users: [{ user: "svc:inv", org: "acme", password: "pw", role: "tenant" }],
    });
    expect((await login("sessions", basic("svc:inv@acme:pw"), { on: s })).status).toBe(401);
  });

  it("a user name containing @ keeps it: the org follows the last @", async () => {
    const s = await startOwn({
      users: [{ user: "ops@example.com", org: "acme", password: "pw", role: "tenant" }],
    });
    expect((await login("sessions", basic("ops@example.com@acme:pw"), { on: s })).status).toBe(200);
  });

  it("answers 406 for a missing or unsupported API version, and lists versions without auth", async () => {
    for (const accept of [
      "application/json",
      "application/json;version=36.0",
      "application/json;version=40.0",
    ]) {
      const response = await login("sessions", standin.basicAuth(TENANT), { accept });
      expect(response.status, accept).toBe(406);
      expect(JSON.parse(response.body)).toMatchObject({ minorErrorCode: "NOT_ACCEPTABLE" });
    }
    const versions = await call(`${standin.url}/api/versions`, { ca: standin.caPem });
    expect(versions.status).toBe(200);
    const listed = [...versions.body.matchAll(/<Version>([\d.]+)<\/Version>/g)].map((m) => m[1]);
    expect(listed[0]).toBe("37.0");
    expect(listed.at(-1)).toBe("39.1");
  });

  it("a configured version range moves the 406 boundary", async () => {
    const s = await startOwn({ apiVersions: { min: "36.0", max: "37.0" } });
    const ask = (version: string) =>
      login("sessions", s.basicAuth(TENANT), {
        accept: `application/json;version=${version}`,
        on: s,
      });
    expect((await ask("36.0")).status).toBe(200);
    expect((await ask("38.0")).status).toBe(406);
  });
});

describe("sessions", () => {
  it("every other call needs the bearer token of an open session", async () => {
    const none = await call(`${standin.url}/api/query?type=vm`, {
      ca: standin.caPem,
      headers: { Accept: "application/*+xml;version=38.0" },
    });
    expect(none.status).toBe(401);
    expect(none.body).toContain('minorErrorCode="UNAUTHORIZED"');
    const basicOnly = await call(`${standin.url}/cloudapi/1.0.0/edgeGateways`, {
      ca: standin.caPem,
      headers: {
        Authorization: standin.basicAuth(TENANT),
        Accept: "application/json;version=38.0",
      },
    });
    expect(basicOnly.status).toBe(401);
    expect(JSON.parse(basicOnly.body)).toMatchObject({ minorErrorCode: "UNAUTHORIZED" });
    expect((await vcdGet(standin, "/api/query?type=vm", "not-a-token")).status).toBe(401);
  });

  it("logout by id and by /current answers 204 and closes the session", async () => {
    const first = await vcdLogin(standin);
    const second = await vcdLogin(standin);
    expect(standin.openSessions).toBe(2);
    const current = await vcdGet(standin, "/cloudapi/1.0.0/sessions/current", first);
    const { id } = JSON.parse(current.body) as { id: string };
    const byId = await call(`${standin.url}/cloudapi/1.0.0/sessions/${id}`, {
      method: "DELETE",
      ca: standin.caPem,
      headers: { Authorization: `Bearer ${first}`, Accept: "application/json;version=38.0" },
    });
    expect(byId.status).toBe(vcdFixtureHttp("cloudapi_sessions/DELETE.204.http").status);
    expect(standin.openSessions).toBe(1);
    expect((await vcdGet(standin, "/api/query?type=vm", first)).status).toBe(401);
    const viaCurrent = await call(`${standin.url}/cloudapi/1.0.0/sessions/current`, {
      method: "DELETE",
      ca: standin.caPem,
      headers: { Authorization: `Bearer ${second}`, Accept: "application/json;version=38.0" },
    });
    expect(viaCurrent.status).toBe(204);
    expect(standin.openSessions).toBe(0);
    expect(standin.writeAttempts).toEqual([]);
  });

  it("expireAllSessions makes every token answer 401", async () => {
    const token = await vcdLogin(standin);
    expect((await vcdGet(standin, "/api/query?type=vm", token)).status).toBe(200);
    standin.expireAllSessions();
    expect(standin.openSessions).toBe(0);
    expect((await vcdGet(standin, "/api/query?type=vm", token)).status).toBe(401);
  });
});
