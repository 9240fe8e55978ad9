// The Proxmox adapter against the Proxmox stand-in: a real HTTPS server with real response shapes.

import {
  type AddressOutcome,
  fieldSourceGaps,
  type ListRead,
  type NeutralVm,
  type SourceSnapshot,
  withShippedJudgement,
} from "@hyperlens/shared";
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  demoCluster,
  type ProxmoxStandin,
  proxmoxNode,
} from "@hyperlens/standins/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createProxmoxClient } from "../client.ts";
import { labCluster } from "../testing/lab-cluster.ts";
import { PROXMOX_FIELD_SOURCES } from "./field-sources.ts";
import { readProxmoxInventory } from "./read-inventory.ts";

let standin: ProxmoxStandin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

async function read(
  options: Parameters<typeof createProxmoxStandin>[0] = {},
): Promise<SourceSnapshot> {
  standin = await createProxmoxStandin({ cluster: labCluster(), ...options });
  const client = createProxmoxClient({
    // The stand-in listens on loopback, which hyper-http refuses unless told otherwise.
    http: {
      connectionId: "c1",
      baseUrl: standin.url,
      caPem: standin.caPem,
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

function list(snapshot: SourceSnapshot, key: string): ListRead {
  const found = snapshot.lists.find((l) => l.key === key);
  if (!found) throw new Error(`no list ${key}`);
  return found;
}

/** A guest of the snapshot with its report judged as the sync judges it under the shipped rules. */
function vm(snapshot: SourceSnapshot, externalId: string): NeutralVm & AddressOutcome {
  const found = snapshot.lists
    .flatMap((l) => (l.status === "ok" ? l.vms : []))
    .find((v) => v.externalId === externalId);
  if (!found) throw new Error(`no vm ${externalId}`);
  return withShippedJudgement(found);
}

describe("reading a Proxmox cluster", () => {
  it("takes IPs only from the VM's own NICs, ignoring MAC case, and explains the rest", async () => {
    // Proxmox VE 9 lets an auditor token read the agent; 7 and 8 answer 403.
    const web = vm(await read({ version: "9.1" }), "100");
    expect(web.ips.filter((ip) => ip.isAccepted).map((ip) => ip.address)).toEqual([
      "10.0.0.10",
      "2001:db8::10",
    ]);
    const rejected = web.ips.filter((ip) => !ip.isAccepted);
    expect(rejected.map((ip) => ip.address)).toEqual(
      expect.arrayContaining(["127.0.0.1", "::1", "172.17.0.1", "169.254.1.1"]),
    );
    // docs/behaviour.md §10.9: the shipped rules ignore docker* by name before its MAC is matched.
    expect(rejected.find((ip) => ip.address === "172.17.0.1")).toMatchObject({
      rejectRule: "IGNORED_INTERFACE",
      rejectReason: "docker0: interface name matches the ignored pattern docker*",
    });
    // The raw report keeps every address, whatever the rules make of it.
    expect(web.reportedAddresses.map((a) => a.address)).toEqual(
      expect.arrayContaining(["172.17.0.1", "127.0.0.1", "10.0.0.10"]),
    );
    expect(web.ipsFromGuestAreLive).toBe(true);
    expect(web.nics).toEqual([
      expect.objectContaining({ key: "net0", mac: "bc:24:11:aa:00:01", network: "vmbr0" }),
    ]);
    expect(web.location).toEqual({ nodeName: "pve1", clusterName: "lab" });
  });

  it("names the OS and keeps its ostype code; the BIOS UUID comes from smbios1 (docs/behaviour.md §6.3)", async () => {
    const snapshot = await read();
    const web = vm(snapshot, "100");
    expect(web).toMatchObject({ guestOs: "Linux", guestOsCode: "l26" });
    expect(web.biosUuid).toMatch(/^4f1c2a9e-7b3d-4e21-9c5a-[0-9a-f]{12}$/);
    const ct = vm(snapshot, "200");
    expect(ct).toMatchObject({ guestOs: "Debian", guestOsCode: "debian" });
    // A container has no firmware of its own, so no BIOS UUID.
    expect(ct.biosUuid).toBeUndefined();
  });

  it("reads static IPv4 and IPv6 of a container from its config", async () => {
    const ct = vm(await read(), "200");
    expect(ct.kind).toBe("CONTAINER");
    expect(
      ct.ips
        .filter((ip) => ip.origin === "STATIC_CONFIG")
        .map((ip) => [ip.address, ip.prefixLength]),
    ).toEqual([
      ["10.0.1.5", 24],
      ["2001:db8:1::5", 64],
    ]);
  });

  it("records ip=dhcp as DHCP-assigned, with the live lease when the API offers it", async () => {
    const ct = vm(await read({ version: "8.4" }), "201");
    expect(ct.ips.filter((ip) => ip.isAccepted)).toEqual([
      expect.objectContaining({ address: "10.0.2.77", origin: "DHCP", nicKey: "net0" }),
    ]);
    expect(ct.details).toMatchObject({ proxmox: { addressing: { net0: { ipv4: "dhcp" } } } });
  });

  it("does not ask for container interfaces where the API lacks them (7.4) and keeps DHCP as such", async () => {
    const snapshot = await read({ version: "7.4" });
    const ct = vm(snapshot, "201");
    expect(ct.ips).toEqual([]);
    expect(ct.ipsFromGuestAreLive).toBe(false);
    expect(ct.details).toMatchObject({ proxmox: { addressing: { net0: { ipv4: "dhcp" } } } });
    const lxcInterfaceCalls = standin?.requests.filter((r) => r.path.endsWith("/interfaces")) ?? [];
    expect(lxcInterfaceCalls).toEqual([]);
  });

  it("treats an agent refused to an auditor token (Proxmox VE 8) as normal: only the IPs are missing", async () => {
    const web = vm(await read({ version: "8.4" }), "100");
    expect(web.ips).toEqual([]);
    expect(web.ipsFromGuestAreLive).toBe(false);
    expect(web.guestReport).toMatchObject({ code: "PERMISSION_MISSING", privilege: "VM.Monitor" });
  });

  it("does not ask the agent of a stopped VM and keeps its IPs as not live", async () => {
    const snapshot = await read();
    expect(vm(snapshot, "101").ipsFromGuestAreLive).toBe(false);
    expect(standin?.requests.some((r) => r.path.includes("/qemu/101/agent"))).toBe(false);
  });

  it("reports a failed qemu list as failed while the node's lxc list still comes back", async () => {
    standin = await createProxmoxStandin({ cluster: labCluster() });
    standin.faults.fail("/nodes/pve1/qemu", 500, { reason: "Internal Server Error", times: 10 });
    const client = createProxmoxClient({
      http: {
        connectionId: "c1",
        baseUrl: standin.url,
        caPem: standin.caPem,
        allowLoopbackTargets: true,
        retry: { attempts: 1 },
      },
      auth: { kind: "token", tokenId: DEFAULT_TOKEN.id, secret: DEFAULT_TOKEN.secret },
    });
    const snapshot = await readProxmoxInventory(client);
    await client.close();
    expect(list(snapshot, "pve1/qemu")).toMatchObject({ status: "failed" });
    expect(list(snapshot, "pve1/lxc")).toMatchObject({ status: "ok" });
  });

  it("reports an offline node's lists as offline, not empty", async () => {
    const spec = labCluster();
    spec.nodes[1] = proxmoxNode({ name: "pve2", online: false }, 1);
    const snapshot = await read({ cluster: spec });
    expect(list(snapshot, "pve2/qemu")).toMatchObject({ status: "node_offline" });
    expect(list(snapshot, "pve2/lxc")).toMatchObject({ status: "node_offline" });
    expect(snapshot.nodes?.find((n) => n.name === "pve2")?.isOnline).toBe(false);
  });

  it("fills exactly the fields docs/inventory.md explains, lab and demo clusters together", async () => {
    const lab = await read({ version: "9.1" });
    await standin?.close();
    const demo = await read({ version: "9.1", cluster: demoCluster() });
    const snapshot = { lists: [...lab.lists, ...demo.lists] };
    const vms = snapshot.lists.flatMap((l) => (l.status === "ok" ? l.vms : []));
    expect(fieldSourceGaps(PROXMOX_FIELD_SOURCES, vms)).toEqual({
      undeclared: [],
      neverFilled: [],
    });
  });

  it("sends nothing but GET requests with a token", async () => {
    await read();
    const methods = new Set(standin?.requests.map((r) => r.method));
    expect([...methods]).toEqual(["GET"]);
  });

  it("names an unreachable server as unreachable", async () => {
    const client = createProxmoxClient({
      http: { connectionId: "c1", baseUrl: "https://pve.invalid:8006", retry: { attempts: 1 } },
      auth: { kind: "token", tokenId: DEFAULT_TOKEN.id, secret: DEFAULT_TOKEN.secret },
    });
    await expect(readProxmoxInventory(client)).rejects.toMatchObject({
      errorClass: "unreachable",
      message: expect.stringContaining("Could not reach the Proxmox server"),
    });
    await client.close();
  });
});
