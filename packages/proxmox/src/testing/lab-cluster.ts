// The cluster the adapter tests read: two nodes, a VM and a container on each, with the quirks a
// real read meets (agent noise interfaces, upper-case agent MACs, a stopped VM, a DHCP container).
import { agentInterface, lxcGuest, proxmoxNode, qemuGuest } from "@hyperlens/standins/testing";

/** A fresh copy of the lab cluster (tests may change it before starting a stand-in). */
export function labCluster() {
  return {
    name: "lab",
    nodes: [proxmoxNode({ name: "pve1" }, 0), proxmoxNode({ name: "pve2" }, 1)],
    guests: [
      qemuGuest({
        vmid: 100,
        name: "web",
        node: "pve1",
        nics: [{ mac: "BC:24:11:AA:00:01", guestIps: ["10.0.0.10/24", "2001:db8::10/64"] }],
        extraAgentInterfaces: [
          agentInterface("docker0", "02:42:ac:11:00:01", ["172.17.0.1/16"]),
          agentInterface("veth1a2b", "6e:11:22:33:44:55", ["169.254.1.1/16"]),
        ],
        agentMacUpperCase: true,
      }),
      qemuGuest({
        vmid: 101,
        name: "db",
        node: "pve2",
        status: "stopped",
        nics: [{ mac: "BC:24:11:AA:00:02" }],
      }),
      lxcGuest({
        vmid: 200,
        name: "static-ct",
        node: "pve1",
        nics: [
          { name: "eth0", mac: "BC:24:11:BB:00:01", ip: "10.0.1.5/24", ip6: "2001:db8:1::5/64" },
        ],
      }),
      lxcGuest({
        vmid: 201,
        name: "dhcp-ct",
        node: "pve2",
        nics: [{ name: "eth0", mac: "BC:24:11:BB:00:02", ip: "dhcp", leasedIp: "10.0.2.77/24" }],
      }),
    ],
  };
}
