import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../testing/https-client.ts";
import { demoCluster } from "./demo-cluster.ts";
import { createProxmoxStandin, type ProxmoxStandin } from "./server.ts";
import type { PveVersion } from "./versions.ts";

type Json = Record<string, unknown>;
const ADMIN = { id: "root@pam!full", secret: "admin-secret", role: "admin" } as const;
const AUDITOR = {
  id: "hyperlens@pve!inventory",
  secret: "auditor-secret",
  role: "auditor",
} as const;

const standins = new Map<PveVersion, ProxmoxStandin>();
beforeAll(async () => {
  for (const version of ["7.4", "8.4", "9.1"] as const) {
    standins.set(
      version,
      await createProxmoxStandin({ version, cluster: demoCluster(), tokens: [AUDITOR, ADMIN] }),
    );
  }
});
afterAll(async () => {
  for (const standin of standins.values()) await standin.close();
});

function get(version: PveVersion, path: string, token: typeof ADMIN | typeof AUDITOR = AUDITOR) {
  const s = standins.get(version);
  if (!s) throw new Error(`no ${version}`);
  return call(`${s.apiUrl}${path}`, {
    ca: s.caPem,
    headers: { Authorization: `PVEAPIToken=${token.id}=${token.secret}` },
  });
}

async function data(version: PveVersion, path: string): Promise<unknown> {
  const response = await get(version, path);
  expect(response.status, response.reason).toBe(200);
  return (JSON.parse(response.body) as { data: unknown }).data;
}

describe("release differences", () => {
  it.each([
    ["7.4", "string"],
    ["8.4", "number"],
    ["9.1", "number"],
  ] as const)("container vmids in /nodes/{node}/lxc on %s are a %s", async (version, type) => {
    const entries = (await data(version, "/nodes/pve1/lxc")) as Json[];
    expect(entries.map((e) => typeof e.vmid)).toEqual(entries.map(() => type));
  });

  it("lxc interfaces: 501 on 7.4, live addresses on 8.4 and 9.1, null for a stopped container", async () => {
    expect((await get("7.4", "/nodes/pve2/lxc/201/interfaces")).status).toBe(501);
    for (const version of ["8.4", "9.1"] as const) {
      const entries = (await data(version, "/nodes/pve2/lxc/201/interfaces")) as Json[];
      expect(entries.map((e) => e.name)).toEqual(["lo", "eth0"]);
      expect(await data(version, "/nodes/pve2/lxc/203/interfaces")).toBeNull();
    }
  });

  it("error text goes into a JSON message only from the 2025 HTTP server on", async () => {
    const on74 = await get("7.4", "/nodes/pve1/qemu/999/config");
    const on91 = await get("9.1", "/nodes/pve1/qemu/999/config");
    expect(on74.reason).toBe("Configuration file 'nodes/pve1/qemu-server/999.conf' does not exist");
    expect(on74.body).toBe('{"data":null}');
    expect(JSON.parse(on91.body)).toEqual({
      data: null,
      message: "Configuration file 'nodes/pve1/qemu-server/999.conf' does not exist\n",
    });
  });

  it("an auditor may read the agent only on 9.x; an admin always", async () => {
    const path = "/nodes/pve1/qemu/100/agent/network-get-interfaces";
    expect((await get("7.4", path)).reason).toBe("Permission check failed (/vms/100, VM.Monitor)");
    expect((await get("8.4", path)).status).toBe(403);
    expect((await get("9.1", path)).status).toBe(200);
    expect((await get("7.4", path, ADMIN)).status).toBe(200);
  });

  it("/access/permissions lists VM.Monitor for admins before 9 and VM.GuestAgent.Audit for auditors on 9", async () => {
    const on74 = (await data("7.4", "/access/permissions")) as Record<string, Json>;
    const on91 = (await data("9.1", "/access/permissions")) as Record<string, Json>;
    expect(on74["/"]?.["VM.Audit"]).toBe(1);
    expect(on74["/"]?.["VM.Monitor"]).toBeUndefined();
    expect(on91["/"]?.["VM.GuestAgent.Audit"]).toBe(1);
    const admin74 = JSON.parse((await get("7.4", "/access/permissions", ADMIN)).body) as {
      data: Record<string, Json>;
    };
    expect(admin74.data["/"]?.["VM.Monitor"]).toBe(1);
  });

  it("9.1 lists carry pressure figures for running guests only; stopped guests have no pid", async () => {
    const entries = (await data("9.1", "/nodes/pve2/qemu")) as Json[];
    const running = entries.find((e) => e.status === "running");
    const stopped = entries.find((e) => e.status === "stopped");
    expect(running?.pressurecpusome).toBeTypeOf("number");
    expect(running?.pid).toBeTypeOf("number");
    expect(stopped && "pressurecpusome" in stopped).toBe(false);
    expect(stopped && "pid" in stopped).toBe(false);
    expect(stopped?.mem).toBe(0);
    const on84 = (await data("8.4", "/nodes/pve2/qemu")) as Json[];
    expect(on84.some((e) => "pressurecpusome" in e)).toBe(false);
  });

  it("the template flag appears in per-node lists only when set", async () => {
    const entries = (await data("8.4", "/nodes/pve1/qemu")) as Json[];
    expect(entries.find((e) => e.vmid === 9000)?.template).toBe(1);
    expect(entries.filter((e) => "template" in e)).toHaveLength(1);
  });
});
