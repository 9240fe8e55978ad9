// The client against the vCenter stand-in over real HTTPS: the session header, logout always,
// vSphere errors as actionable messages, unreachable named as unreachable.
import { createHyperClient, type HyperError, isHyperError } from "@hyperlens/hyper-http";
import { errorText, serverText } from "@hyperlens/shared";
import { DEMO_VCENTER_IDS as ids } from "@hyperlens/standins/testing";
import { describe, expect, it } from "vitest";
import { VCENTER_ALLOWED_WRITES } from "./allowed-writes.ts";
import { fixtureJson, fixtureText } from "./testing/fixtures.ts";
import { setup } from "./testing/setup.ts";

async function rejection(promise: Promise<unknown>): Promise<HyperError> {
  try {
    await promise;
  } catch (error) {
    if (isHyperError(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe("session", () => {
  it("logs in with Basic at POST /api/session and reads with the vmware-api-session-id header", async () => {
    const { standin, client } = await setup();
    const vms = await client.withSession(() => client.listVms());
    expect(vms).toHaveLength(6);
    // The stand-in answers 401 to any read without the session header.
    expect(standin.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /api/session 201",
      "GET /api/vcenter/vm 200",
      "DELETE /api/session 204",
    ]);
    expect(standin.sessions).toHaveLength(1);
  });

  it("logs out after Test, after success and after a failure part-way: no session left", async () => {
    const { standin, client } = await setup();
    await client.withSession(() => client.sessionInfo());
    expect(standin.openSessions).toBe(0);
    const boom = client.withSession(async () => {
      await client.listVms();
      expect(standin.openSessions).toBe(1);
      throw new Error("boom");
    });
    await expect(boom).rejects.toThrow("boom");
    expect(standin.openSessions).toBe(0);
    standin.faults.fail("/api/vcenter/vm/{vm}", 500, { times: 5 });
    await rejection(client.withSession(() => client.vmInfo(ids.vmWeb01)));
    expect(standin.openSessions).toBe(0);
    expect(standin.sessions).toHaveLength(3);
  });

  it("nested sessions share one login and the outermost logs out", async () => {
    const { standin, client } = await setup();
    await client.withSession(() => client.withSession(() => client.hosts()));
    expect(standin.sessions).toHaveLength(1);
    expect(standin.openSessions).toBe(0);
  });

  it("logs in once more when the session expired mid-read, and logs that one out", async () => {
    const { standin, client } = await setup();
    await client.withSession(async () => {
      await client.hosts();
      standin.expireAllSessions();
      await client.hosts();
    });
    expect(standin.sessions).toHaveLength(2);
    expect(standin.openSessions).toBe(0);
  });

  it("a read still on the wire when the session ends does not log in again after its 401", async () => {
    const { standin, client } = await setup();
    standin.faults.fail("/api/vcenter/host", 401, { times: 1 });
    let late: Promise<unknown> = Promise.resolve();
    const failed = client.withSession(async () => {
      late = client.hosts().catch((error: unknown) => error);
      throw new Error("a sibling read failed");
    });
    await expect(failed).rejects.toThrow("a sibling read failed");
    expect(isHyperError(await late) && ((await late) as HyperError).status).toBe(401);
    expect(standin.sessions).toHaveLength(1);
    expect(standin.openSessions).toBe(0);
  });

  it("a wrong password is an auth error that names the user format, without the password", async () => {
    const { standin, client } = await setup({}, { password: "wrong-secret-1" });
    const error = await rejection(client.withSession(() => client.hosts()));
    expect(error.errorClass).toBe("auth");
    expect(error.message).toContain("Authentication required.");
    expect(error.message).toContain("@vsphere.local");
    expect(error.message).not.toContain("wrong-secret-1");
    // docs/behaviour.md §11.4: the door's frame and vCenter's advice, both as codes.
    expect(errorText(error)).toMatchObject({
      code: "hyperFailureHint",
      params: { failure: { code: "hyperLoginRefused" }, hint: serverText("vcenterLoginHint", {}) },
    });
    // One login attempt only: a password is never sent twice.
    expect(standin.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("a read without a session is refused before sending, as a code", async () => {
    const { standin, client } = await setup();
    const error = await rejection(client.hosts());
    expect(errorText(error)).toEqual(
      serverText("hyperNoSession", { source: "vCenter", path: "/api/vcenter/host" }),
    );
    expect(standin.requests).toHaveLength(0);
  });

  it("a failed logout is logged, never thrown over the result", async () => {
    const { standin, client, warnings } = await setup();
    standin.faults.fail("/api/session", 500, { method: "DELETE", times: 5 });
    await expect(client.withSession(() => client.hosts())).resolves.toHaveLength(4);
    expect(warnings.some((w) => String(w.msg).includes("logout failed"))).toBe(true);
  });

  it("names an unreachable server as unreachable", async () => {
    const { client } = await setup({}, { baseUrl: "https://127.0.0.1:1" });
    const error = await rejection(client.withSession(() => client.hosts()));
    expect(error.errorClass).toBe("unreachable");
    expect(error.message).toMatch(/^Could not reach the vCenter server/);
  });
});

describe("vSphere errors", () => {
  const cases: [string, string, number][] = [
    ["/api/session", "session/POST.401.json", 401],
    ["/api/vcenter/vm/{vm}", "vcenter_vm/GET.404.json", 404],
    ["/api/vcenter/vm", "vcenter_vm/GET.500.too-many.json", 500],
  ];
  it.each(cases)("%s answering %s gives its default_message", async (path, file, status) => {
    const { standin, client } = await setup();
    const body = fixtureText(file);
    const expected = (fixtureJson(file) as { messages: { default_message: string }[] }).messages[0]
      ?.default_message;
    await client.login();
    standin.faults.fail(path, status, {
      method: status === 401 ? "GET" : undefined,
      body,
      headers: { "Content-Type": "application/json" },
    });
    const read =
      path === "/api/vcenter/vm"
        ? client.listVms()
        : path === "/api/session"
          ? client.sessionInfo()
          : client.vmInfo("vm-9999");
    const error = await rejection(read);
    expect(error.serverMessage).toBe(expected);
    expect(error.message).toContain(String(expected));
    expect(error.message).toContain("vCenter");
    standin.faults.clear();
  });

  it("503 while Tools are not running is an outcome, not an error, and is not retried", async () => {
    const { standin, client } = await setup();
    const outcome = await client.withSession(() => client.guestInterfaces(ids.vmBuild01));
    expect(outcome).toEqual({
      kind: "unavailable",
      status: 503,
      reason: "VMware Tools is not running.",
    });
    const asked = standin.requests.filter((r) => r.path.endsWith("/interfaces"));
    expect(asked).toHaveLength(1);
  });
});

describe("read-only", () => {
  it("the allowlist lets only POST/DELETE /api/session out, even when called a login", async () => {
    const { standin } = await setup();
    const http = createHyperClient({
      connectionId: "vc-1",
      source: "vCenter",
      baseUrl: standin.url,
      caPem: standin.caPem,
      allowLoopbackTargets: true,
      allowedWrites: VCENTER_ALLOWED_WRITES,
    });
    for (const [method, path] of [
      ["POST", "/api/vcenter/vm/vm-1/power?action=start"],
      ["DELETE", "/api/vcenter/vm/vm-1"],
      ["POST", "/api/session/extra"],
      ["PATCH", "/api/session"],
    ] as const) {
      const error = await rejection(http.request({ method, path, purpose: "login" }));
      expect(error.errorClass).toBe("config");
    }
    await http.close();
    expect(standin.requests).toEqual([]);
  });
});
