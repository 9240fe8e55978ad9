// Why a Proxmox guest's agent values are missing, as codes (docs/behaviour.md §10.11),
// and the agent's own hostname and OS read only from an agent that just answered.
import type { NeutralVm, SourceSnapshot } from "@hyperlens/shared";
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  type ProxmoxStandin,
  type PveVersion,
} from "@hyperlens/standins/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createProxmoxClient } from "../client.ts";
import { labCluster } from "../testing/lab-cluster.ts";
import { readProxmoxInventory } from "./read-inventory.ts";

let standin: ProxmoxStandin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

async function start(version: PveVersion = "9.1"): Promise<ProxmoxStandin> {
  standin = await createProxmoxStandin({ cluster: labCluster(), version });
  return standin;
}

async function read(target: ProxmoxStandin): Promise<SourceSnapshot> {
  const client = createProxmoxClient({
    http: {
      connectionId: "c1",
      baseUrl: target.url,
      caPem: target.caPem,
      allowLoopbackTargets: true,
    },
    auth: { kind: "token", tokenId: DEFAULT_TOKEN.id, secret: DEFAULT_TOKEN.secret },
  });
  try {
    return await readProxmoxInventory(client);
  } finally {
    await client.close();
  }
}

function guest(snapshot: SourceSnapshot, externalId: string): NeutralVm {
  const found = snapshot.lists
    .flatMap((l) => (l.status === "ok" ? l.vms : []))
    .find((v) => v.externalId === externalId);
  if (!found) throw new Error(`no guest ${externalId}`);
  return found;
}

const agentCalls = (target: ProxmoxStandin, vmid: number) =>
  target.requests
    .filter((r) => r.path.includes(`/qemu/${vmid}/agent/`))
    .map((r) => r.path.split("/agent/")[1]);

describe("a Proxmox VM's guest-reported values and why they are missing", () => {
  it("reads hostname, OS name and version and kernel from an answering agent", async () => {
    const target = await start("9.1");
    const web = guest(await read(target), "100");
    expect(web.guestReport).toEqual({ code: "REPORTED" });
    expect(web.guestValues).toEqual({
      HOSTNAME: "web",
      OS_NAME: "Debian GNU/Linux 12 (bookworm)",
      OS_VERSION: "12 (bookworm)",
      KERNEL: "6.1.0-18-amd64",
    });
    expect(agentCalls(target, 100)).toEqual([
      "network-get-interfaces",
      "get-host-name",
      "get-osinfo",
    ]);
  });

  it("leaves out only the values whose call failed, and keeps the guest's list", async () => {
    const target = await start();
    target.faults.fail("/nodes/pve1/qemu/100/agent/get-osinfo", 501, { times: 10 });
    const snapshot = await read(target);
    expect(snapshot.lists.find((l) => l.key === "pve1/qemu")?.status).toBe("ok");
    const web = guest(snapshot, "100");
    expect(web.guestReport).toEqual({ code: "REPORTED" });
    expect(web.guestValues).toEqual({ HOSTNAME: "web" });
  });

  it("says VM_NOT_RUNNING for a stopped VM and asks its agent nothing", async () => {
    const target = await start();
    const db = guest(await read(target), "101");
    expect(db.guestReport).toEqual({ code: "VM_NOT_RUNNING" });
    expect(db.guestValues).toEqual({});
    expect(agentCalls(target, 101)).toEqual([]);
  });

  it("says AGENT_NOT_RUNNING for a silent agent and pings it only once", async () => {
    const target = await start();
    target.cluster.setAgent(100, { state: "silent" });
    const web = guest(await read(target), "100");
    expect(web.guestReport).toEqual({ code: "AGENT_NOT_RUNNING" });
    expect(web.guestValues).toEqual({});
    // A silent agent costs a 3 s ping per call: hostname and OS are not asked after it.
    expect(agentCalls(target, 100)).toEqual(["network-get-interfaces"]);
  });

  it("says AGENT_NOT_CONFIGURED when the config does not enable the agent", async () => {
    const target = await start();
    target.cluster.setConfig(100, "agent", undefined);
    expect(guest(await read(target), "100").guestReport).toEqual({
      code: "AGENT_NOT_CONFIGURED",
    });
    expect(agentCalls(target, 100)).toEqual([]);
  });

  it("says READ_FAILED with the source's words when the agent command fails", async () => {
    const target = await start();
    target.cluster.setAgent(100, { state: "command-fails", reason: "got timeout" });
    expect(guest(await read(target), "100").guestReport).toEqual({
      code: "READ_FAILED",
      message: "VM 100 qga command 'guest-network-get-interfaces' failed - got timeout",
    });
  });

  it.each([
    ["8.4", "VM.Monitor"],
    ["7.4", "VM.Monitor"],
  ] as const)(
    "says PERMISSION_MISSING with %s's agent privilege (%s) for an auditor token",
    async (version, privilege) => {
      const target = await start(version);
      const web = guest(await read(target), "100");
      expect(web.guestReport).toMatchObject({ code: "PERMISSION_MISSING", privilege });
      expect(web.ipsFromGuestAreLive).toBe(false);
    },
  );

  it("says CONTAINER_STOPPED for a stopped container, which keeps its config's hostname", async () => {
    const target = await start("8.4");
    target.cluster.setStatus(200, "stopped");
    const ct = guest(await read(target), "200");
    expect(ct.guestReport).toEqual({ code: "CONTAINER_STOPPED" });
    expect(ct.guestValues).toEqual({ HOSTNAME: "static-ct" });
  });

  it("says NOT_OFFERED_BY_SOURCE for a running container where the API has no live interfaces (7.4)", async () => {
    const target = await start("7.4");
    expect(guest(await read(target), "201").guestReport).toEqual({
      code: "NOT_OFFERED_BY_SOURCE",
    });
  });

  it("says REPORTED for a running container whose live interfaces were read", async () => {
    const target = await start("8.4");
    expect(guest(await read(target), "201").guestReport).toEqual({ code: "REPORTED" });
  });
});
