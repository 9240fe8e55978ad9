import { isHyperError } from "@hyperlens/hyper-http";
import { errorText, serverText } from "@hyperlens/shared";
import { describe, expect, it } from "vitest";
import { fixtureFiles, readFixture } from "../testing/fixtures.ts";
import { parseAgentHostName, parseAgentOsInfo } from "./agent-identity.ts";
import { parseAgentNetwork } from "./agent-interfaces.ts";
import { parseClusterStatus } from "./cluster-status.ts";
import { parseLxcConfig, parseQemuConfig } from "./guest-config.ts";
import { parseGuestList } from "./guest-list.ts";
import { parseLxcInterfaces } from "./lxc-interfaces.ts";
import { parseNodes } from "./nodes.ts";
import { parsePermissions } from "./permissions.ts";
import { parseTicket } from "./ticket.ts";
import { parseVersion } from "./version.ts";

const GiB = 1024 ** 3;

describe("every recorded answer parses", () => {
  const parsers: Record<string, (body: unknown) => unknown> = {
    version: parseVersion,
    nodes: parseNodes,
    cluster_status: parseClusterStatus,
    qemu_list: (b) => parseGuestList(b, "qemu", "pve"),
    lxc_list: (b) => parseGuestList(b, "lxc", "pve"),
    qemu_config: parseQemuConfig,
    lxc_config: parseLxcConfig,
    qemu_agent_network: parseAgentNetwork,
    qemu_agent_osinfo: parseAgentOsInfo,
    qemu_agent_hostname: parseAgentHostName,
    lxc_interfaces: parseLxcInterfaces,
  };
  for (const [folder, parse] of Object.entries(parsers)) {
    for (const file of fixtureFiles(folder)) {
      it(file, () => {
        expect(() => parse(readFixture(file))).not.toThrow();
      });
    }
  }
  for (const file of fixtureFiles("access_ticket").filter((f) => !f.includes("needtfa"))) {
    it(file, () => expect(parseTicket(readFixture(file)).ticket).toMatch(/^PVE:/));
  }
});

describe("agent identity (docs/behaviour.md §10.10)", () => {
  it("reads name, version and kernel from get-osinfo, Linux and Windows", () => {
    expect(parseAgentOsInfo(readFixture("qemu_agent_osinfo/GET.200.debian12.json"))).toEqual({
      prettyName: "Debian GNU/Linux 12 (bookworm)",
      name: "Debian GNU/Linux",
      version: "12 (bookworm)",
      kernel: "6.1.0-18-amd64",
    });
    expect(parseAgentOsInfo(readFixture("qemu_agent_osinfo/GET.200.windows-server.json"))).toEqual({
      prettyName: "Windows Server 2022 Standard",
      name: "Microsoft Windows",
      version: "Microsoft Windows Server 2022",
      kernel: "20348",
    });
  });

  it("gives nothing, not an error, for an old agent's error inside result", () => {
    expect(
      parseAgentOsInfo(readFixture("qemu_agent_osinfo/GET.200.unsupported-old-agent.json")),
    ).toBeNull();
  });

  it("falls back to version-id and reads blank fields as missing", () => {
    const body = { data: { result: { "version-id": "12", "kernel-release": " ", name: "" } } };
    expect(parseAgentOsInfo(body)).toEqual({
      prettyName: null,
      name: null,
      version: "12",
      kernel: null,
    });
  });

  it("reads the guest's own hostname", () => {
    expect(parseAgentHostName(readFixture("qemu_agent_hostname/GET.200.json"))).toBe("web-01");
  });
});

describe("version", () => {
  it("reads the dash form before 8 and the dotted form since", () => {
    expect(parseVersion(readFixture("version/GET.200.pve7.json"))).toMatchObject({
      version: "7.4-16",
      major: 7,
      minor: 4,
    });
    expect(parseVersion(readFixture("version/GET.200.pve9.json"))).toMatchObject({
      version: "9.1.2",
      major: 9,
      repoid: "9a1b2c3d4e5f6a7b",
    });
    expect(parseVersion(readFixture("version/GET.200.pve8.json")).major).toBe(8);
  });
});

describe("nodes", () => {
  it("keeps an offline node that has only its name and status", () => {
    const nodes = parseNodes(readFixture("nodes/GET.200.with-offline-node-pve6.json"));
    expect(nodes.map((n) => [n.node, n.status])).toEqual([
      ["testnode", "online"],
      ["testnode2", "offline"],
    ]);
    expect(nodes[1]).toMatchObject({ maxCpu: null, maxMemBytes: null, uptimeSeconds: null });
  });

  it("reads a 4-node PVE 7 cluster", () => {
    expect(parseNodes(readFixture("nodes/GET.200.4-nodes-pve7.json"))).toHaveLength(4);
  });
});

describe("cluster status", () => {
  it("takes the cluster name from the type=cluster entry", () => {
    const status = parseClusterStatus(readFixture("cluster_status/GET.200.cluster.json"));
    expect(status.clusterName).toBe("clustername");
    expect(status.quorate).toBe(true);
    expect(status.nodes).toHaveLength(4);
  });

  it("a standalone node has no cluster name", () => {
    const status = parseClusterStatus(readFixture("cluster_status/GET.200.standalone.json"));
    expect(status.clusterName).toBeNull();
    expect(status.nodes).toEqual([
      { name: "pve", nodeId: 0, isOnline: true, ip: "192.168.1.10", isLocal: true },
    ]);
  });

  it("reports an offline member as offline", () => {
    const status = parseClusterStatus(
      readFixture("cluster_status/GET.200.cluster-with-offline-node.json"),
    );
    expect(status.nodes.find((n) => n.name === "node3")?.isOnline).toBe(false);
  });
});

describe("guest lists", () => {
  it("reads container vmids sent as strings (before PVE 8.2) as numbers", () => {
    const guests = parseGuestList(
      readFixture("lxc_list/GET.200.pve7-vmid-string.json"),
      "lxc",
      "n",
    );
    expect(guests[0]?.vmid).toBe(106);
    const pve8 = parseGuestList(readFixture("lxc_list/GET.200.pve8.json"), "lxc", "n");
    expect(pve8.map((g) => g.vmid)).toEqual([103, 102, 104, 105]);
    expect(pve8[3]?.name).toBeNull();
  });

  it("reads pid/maxdisk as strings, and stopped guests without pid", () => {
    const pve6 = parseGuestList(readFixture("lxc_list/GET.200.pve6.json"), "lxc", "n");
    expect(pve6.every((g) => typeof g.vmid === "number")).toBe(true);
    const qemu = parseGuestList(readFixture("qemu_list/GET.200.pve8.json"), "qemu", "n");
    expect(qemu.find((g) => g.vmid === 101)).toMatchObject({ status: "stopped", pid: null });
    expect(qemu.find((g) => g.vmid === 100)?.pid).toBe(4076688);
  });

  it("marks templates (template: 1, while '' means not a template)", () => {
    const list = parseGuestList(
      readFixture("qemu_list/GET.200.pve6-with-template.json"),
      "qemu",
      "n",
    );
    expect(list.filter((g) => g.isTemplate).map((g) => g.vmid)).toEqual([9001]);
  });

  it("fails the whole list when an entry has no vmid, rather than dropping that guest", () => {
    const body = {
      data: [
        { vmid: 100, status: "running" },
        { name: "broken", status: "running" },
      ],
    };
    try {
      parseGuestList(body, "qemu", "pve");
      expect.unreachable();
    } catch (error) {
      expect(isHyperError(error) && error.errorClass).toBe("malformed");
      expect(String(error)).toContain("GET /nodes/pve/qemu");
    }
  });

  it("keeps unknown fields out of the way (pve 9 pressure fields)", () => {
    const body = { data: [{ vmid: 100, status: "running", pressurecpusome: 0.1, memhost: 5 }] };
    expect(parseGuestList(body, "qemu", "pve")[0]?.vmid).toBe(100);
  });
});

describe("QEMU config", () => {
  it("pve6-101: virtio NIC, scsi disk, cloud-init and CD-ROM skipped, agent with options, comma tags", () => {
    const config = parseQemuConfig(readFixture("qemu_config/GET.200.pve6-101.json"));
    expect(config).toMatchObject({
      name: "test-qemu",
      cores: 1,
      sockets: 1,
      vcpus: 1,
      memoryMiB: 1000,
      ostype: "l26",
      isAgentEnabled: true,
      isTemplate: false,
      tags: ["one", "two", "three"],
      description: "A test qemu",
    });
    expect(config.nics.map((n) => [n.model, n.mac, n.bridge])).toEqual([
      ["virtio", "ff:ff:ff:ff:ff:ff", "vmbr0"],
    ]);
    expect(config.disks.map((d) => [d.key, d.sizeBytes])).toEqual([["scsi0", 8 * GiB]]);
  });

  it("pve6-102: Windows on sata0", () => {
    const config = parseQemuConfig(readFixture("qemu_config/GET.200.pve6-102.json"));
    expect(config).toMatchObject({
      ostype: "win8",
      smbiosUuid: "127301fc-0122-48d5-8fc5-c04fa78d8146",
      vcpus: 6,
      memoryMiB: 10240,
      isAgentEnabled: true,
    });
    expect(config.disks.map((d) => [d.key, d.sizeBytes])).toEqual([["sata0", 100 * GiB]]);
  });

  it("pve6-103: two NICs, three disks in key order", () => {
    const config = parseQemuConfig(readFixture("qemu_config/GET.200.pve6-103.json"));
    expect(config.nics.map((n) => n.key)).toEqual(["net0", "net1"]);
    expect(config.disks.map((d) => [d.key, d.sizeBytes])).toEqual([
      ["scsi0", 10 * GiB],
      ["scsi1", 30 * GiB],
      ["scsi2", 10 * GiB],
    ]);
    expect(config.vcpus).toBe(4);
  });

  it("agent enabled= syntax, memory as a string, e1000 with VLAN tag, ; tags", () => {
    const config = parseQemuConfig(readFixture("qemu_config/GET.200.agent-enabled-syntax.json"));
    expect(config.isAgentEnabled).toBe(true);
    expect(config.memoryMiB).toBe(4096);
    expect(config.tags).toEqual(["prod", "web"]);
    expect(config.nics).toMatchObject([
      { model: "virtio", mac: "bc:24:11:ab:cd:ef", vlanTag: 20, isFirewalled: true },
      { model: "e1000", mac: "bc:24:11:ab:cd:f0", bridge: "vmbr1", vlanTag: null },
    ]);
    expect(config.disks.map((d) => [d.key, d.storage, d.sizeBytes])).toEqual([
      ["scsi0", "local-lvm", 32 * GiB],
      ["virtio0", "ceph", 100 * GiB],
    ]);
  });

  it("pve9 with many devices: every disk bus, no CD-ROM, unused/hostpci ignored", () => {
    const config = parseQemuConfig(readFixture("qemu_config/GET.200.pve9-many-devices.json"));
    expect(config.disks.map((d) => [d.key, d.sizeBytes])).toEqual([
      ["ide0", null],
      ["sata0", 32 * GiB],
      ["scsi0", 32 * GiB],
      ["virtio0", 64 * GiB],
    ]);
    expect(config.isAgentEnabled).toBe(false);
    expect(config.nics[0]?.mac).toBe("bc:24:11:2e:c5:4a");
  });

  it("applies Proxmox defaults when cores, sockets and memory are unset; reads template: 1", () => {
    const config = parseQemuConfig({ data: { template: 1, memory: "current=2048" } });
    expect(config).toMatchObject({
      cores: 1,
      sockets: 1,
      vcpus: 1,
      memoryMiB: 2048,
      isTemplate: true,
    });
    expect(parseQemuConfig({ data: { cores: 2, sockets: 2 } })).toMatchObject({
      vcpus: 4,
      memoryMiB: 512,
    });
  });
});

describe("container config", () => {
  it("DHCP address, bind mount, raw lxc pairs, ; tags", () => {
    const config = parseLxcConfig(readFixture("lxc_config/GET.200.dhcp-mp0-rawlxc-pve7.json"));
    expect(config).toMatchObject({
      hostname: "test-container",
      cores: 2,
      memoryMiB: 4096,
      swapMiB: 512,
      ostype: "debian",
      tags: ["tag1", "tag2"],
    });
    expect(config.nics).toMatchObject([
      { name: "eth0", mac: "5d:cf:bd:b2:c5:39", ipv4: { kind: "dhcp" } },
    ]);
    expect(config.disks.map((d) => [d.key, d.sizeBytes, d.mountPoint])).toEqual([
      ["rootfs", 30 * GiB, "/"],
      ["mp0", null, "/storage"],
    ]);
    expect(Array.isArray(config.raw.lxc)).toBe(true);
  });

  it("static address with gateway and upper-case hwaddr", () => {
    const config = parseLxcConfig(readFixture("lxc_config/GET.200.static-ip-pve6.json"));
    expect(config.nics[0]).toMatchObject({
      mac: "ff:ff:ff:ff:ff:ff",
      ipv4: { kind: "static", address: "10.1.1.3", prefix: 24 },
      gateway4: "10.1.1.1",
    });
    expect(config.disks[0]?.sizeBytes).toBe(4 * GiB);
  });

  it("wide config: net20 and mp255 found, dev/unused ignored", () => {
    const config = parseLxcConfig(readFixture("lxc_config/GET.200.wide-pve9-gomox.json"));
    expect(config.nics.map((n) => n.key)).toEqual(["net0", "net20"]);
    expect(config.nics[0]).toMatchObject({ mac: null, ipv4: null });
    expect(config.disks.map((d) => d.key)).toEqual(["rootfs", "mp0", "mp42", "mp255"]);
  });
});

describe("guest agent interfaces", () => {
  it("unwraps {data:{result:[…]}} and keeps lo, docker0 and all addresses for the caller to filter", () => {
    const result = parseAgentNetwork(readFixture("qemu_agent_network/GET.200.linux-pve6.json"));
    expect(result.kind).toBe("interfaces");
    if (result.kind !== "interfaces") return;
    expect(result.interfaces.map((i) => i.name)).toEqual(["lo", "eth0", "docker0"]);
    expect(result.interfaces[1]?.addresses).toEqual([
      { address: "10.1.2.3", family: "ipv4", prefix: 24 },
      { address: "fd8c:4687:e88d:1be3:5b70:7b88:c79c:293", family: "ipv6", prefix: 64 },
    ]);
  });

  it("tolerates interfaces without addresses, statistics or even a MAC", () => {
    const result = parseAgentNetwork(
      readFixture("qemu_agent_network/GET.200.many-ifaces-missing-keys-pve6.json"),
    );
    if (result.kind !== "interfaces") throw new Error("expected interfaces");
    expect(result.interfaces.find((i) => i.name === "datapath")?.addresses).toEqual([]);
    expect(result.interfaces.find((i) => i.name === "nomacorip")).toEqual({
      name: "nomacorip",
      mac: null,
      addresses: [],
    });
  });

  it("normalizes upper-case MACs", () => {
    const result = parseAgentNetwork(readFixture("qemu_agent_network/GET.200.pve9-gomox.json"));
    if (result.kind !== "interfaces") throw new Error("expected interfaces");
    expect(result.interfaces[1]?.mac).toBe("bc:24:11:2e:c5:4a");
  });

  it("an agent error inside a 200 (old PVE) is an agent error, not interfaces", () => {
    expect(
      parseAgentNetwork(readFixture("qemu_agent_network/GET.200.windows-unsupported-pve6.json")),
    ).toEqual({
      kind: "agent-error",
      errorClass: "Unsupported",
      message: "this feature or command is not currently supported",
    });
  });
});

describe("container interfaces", () => {
  it("reads inet/inet6 CIDRs (no result wrapper)", () => {
    const interfaces = parseLxcInterfaces(readFixture("lxc_interfaces/GET.200.pve7.json"));
    expect(interfaces[1]).toEqual({
      name: "eth0",
      mac: "bc:24:11:89:67:07",
      addresses: [
        { address: "192.168.3.95", family: "ipv4", prefix: 22 },
        { address: "fe80::be24:11ff:fe89:6707", family: "ipv6", prefix: 64 },
      ],
    });
  });

  it("reads the agent-like shape of PVE 8.4/9", () => {
    const body = {
      data: [
        {
          name: "eth0",
          "hardware-address": "BC:24:11:89:67:07",
          hwaddr: "bc:24:11:89:67:07",
          inet: "10.0.0.5/24",
          "ip-addresses": [{ "ip-address": "10.0.0.5", "ip-address-type": "inet", prefix: 24 }],
        },
      ],
    };
    expect(parseLxcInterfaces(body)[0]?.addresses).toEqual([
      { address: "10.0.0.5", family: "ipv4", prefix: 24 },
    ]);
  });
});

describe("permissions and ticket", () => {
  it("reads path → privilege → propagate", () => {
    const body = {
      data: { "/": { "Sys.Audit": 1, "VM.Audit": 1 }, "/vms/100": { "VM.PowerMgmt": 0 } },
    };
    expect(parsePermissions(body)).toEqual({
      "/": { "Sys.Audit": true, "VM.Audit": true },
      "/vms/100": { "VM.PowerMgmt": false },
    });
  });

  it("refuses a half ticket that awaits a second factor", () => {
    try {
      parseTicket(readFixture("access_ticket/POST.200.needtfa.json"));
      expect.unreachable();
    } catch (error) {
      expect(isHyperError(error) && error.errorClass).toBe("auth");
      expect(errorText(error)).toEqual(serverText("proxmoxNeedsTfa", {}));
    }
  });

  it("a 401 body {data:null} is not a ticket", () => {
    expect(() => parseTicket({ data: null })).toThrow(/unexpected shape/);
    try {
      parseTicket({ data: null });
    } catch (error) {
      // docs/behaviour.md §11.4: our frame as a code, the schema's own words inside it.
      expect(errorText(error)).toMatchObject({
        code: "hyperAnswerMalformed",
        params: { source: "Proxmox", call: "POST /access/ticket" },
      });
    }
  });
});
