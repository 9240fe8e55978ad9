import { agentInterface, lxcGuest, proxmoxNode, qemuGuest } from "./guest-builders.ts";
import { ProxmoxCluster } from "./model.ts";

const GIB = 1024 ** 3;

/**
 * A small, realistic cluster for the demo mode and hand-written tests: three online nodes and
 * one offline, web/db/k8s VMs whose agents report docker, CNI, veth and tunnel interfaces,
 * a Windows server, containers with static and DHCP addresses, a template and stopped guests.
 */
export function demoCluster(): ProxmoxCluster {
  const nodes = [
    proxmoxNode({ name: "pve1", maxcpu: 48, maxmem: 384 * GIB, level: "c" }, 0),
    proxmoxNode({ name: "pve2", maxcpu: 48, maxmem: 384 * GIB, level: "c" }, 1),
    proxmoxNode({ name: "pve3", maxcpu: 32, maxmem: 256 * GIB, level: "c" }, 2),
    proxmoxNode({ name: "pve4", maxcpu: 16, maxmem: 128 * GIB, online: false }, 3),
  ];
  return new ProxmoxCluster({
    name: "pve-prod",
    nodes,
    guests: [
      qemuGuest({
        vmid: 100,
        name: "web-01",
        node: "pve1",
        cpus: 4,
        memoryMiB: 8192,
        tags: ["prod", "web"],
        nics: [{ mac: "BC:24:11:4A:10:01", guestIps: ["10.10.0.11/24", "2001:db8:10::11/64"] }],
        disks: [
          { bus: "scsi", index: 0, sizeGiB: 40 },
          { bus: "ide", index: 2, cdrom: true },
        ],
        extraAgentInterfaces: [
          agentInterface("docker0", "02:42:8e:1f:3a:07", ["172.17.0.1/16"]),
          agentInterface("veth3f2a1b9", "7a:1c:9e:44:02:bd", []),
          agentInterface("br-5c1d2e3f4a5b", "02:42:c0:a8:10:01", ["172.18.0.1/16"]),
        ],
      }),
      qemuGuest({
        vmid: 101,
        name: "web-02",
        node: "pve2",
        cpus: 4,
        memoryMiB: 8192,
        tags: ["prod", "web"],
        nics: [{ mac: "BC:24:11:4A:10:02", guestIps: ["10.10.0.12/24"] }],
        agentMacUpperCase: true,
        agent: "enabled=1,fstrim_cloned_disks=1",
      }),
      qemuGuest({
        vmid: 102,
        name: "db-01",
        node: "pve1",
        cpus: 8,
        memoryMiB: 32768,
        tags: ["prod", "postgres"],
        nics: [
          { mac: "BC:24:11:4A:10:03", guestIps: ["10.10.0.21/24"] },
          {
            model: "virtio",
            mac: "BC:24:11:4A:20:03",
            bridge: "vmbr1",
            tag: 20,
            guestIps: ["10.20.0.21/24"],
          },
        ],
        disks: [
          { bus: "scsi", index: 0, sizeGiB: 32 },
          { bus: "scsi", index: 1, sizeGiB: 500, storage: "ceph-ssd" },
        ],
      }),
      qemuGuest({
        vmid: 110,
        name: "k8s-cp-01",
        node: "pve2",
        cpus: 4,
        memoryMiB: 8192,
        tags: ["k8s"],
        nics: [{ mac: "BC:24:11:4A:30:10", guestIps: ["10.30.0.10/24"] }],
        extraAgentInterfaces: [
          agentInterface("cni0", "6e:2f:01:aa:bc:10", ["10.244.0.1/24"]),
          agentInterface("flannel.1", "9a:02:77:1e:5d:10", ["10.244.0.0/32"]),
          agentInterface("vethb81c2f0e", "d2:9f:3c:5b:61:aa", []),
        ],
      }),
      qemuGuest({
        vmid: 111,
        name: "k8s-worker-01",
        node: "pve3",
        cpus: 8,
        memoryMiB: 16384,
        tags: ["k8s"],
        nics: [{ model: "vmxnet3", mac: "BC:24:11:4A:30:11", guestIps: ["10.30.0.11/24"] }],
        extraAgentInterfaces: [
          agentInterface("cni0", "6e:2f:01:aa:bc:11", ["10.244.1.1/24"]),
          agentInterface("tunl0", undefined, ["10.244.1.0/32"]),
        ],
      }),
      qemuGuest({
        vmid: 120,
        name: "dc01.corp.example",
        node: "pve3",
        cpus: 2,
        memoryMiB: 4096,
        ostype: "win11",
        tags: ["windows"],
        nics: [
          {
            model: "e1000",
            mac: "BC:24:11:4A:40:20",
            guestIps: ["10.40.0.5/24"],
            guestName: "Ethernet",
          },
        ],
        disks: [
          { bus: "sata", index: 0, sizeGiB: 80 },
          { bus: "ide", index: 2, cdrom: true, iso: "virtio-win-0.1.248.iso" },
        ],
        extraAgentInterfaces: [
          agentInterface("Loopback Pseudo-Interface 1", undefined, ["127.0.0.1/8", "::1/128"]),
        ],
      }),
      qemuGuest({
        vmid: 121,
        name: "vpn-gw",
        node: "pve1",
        cpus: 1,
        memoryMiB: 1024,
        nics: [{ mac: "BC:24:11:4A:50:21", guestIps: ["203.0.113.10/28"] }],
        extraAgentInterfaces: [
          agentInterface("wg0", undefined, ["10.99.0.1/24"]),
          agentInterface("tun0", undefined, ["10.8.0.1/24"]),
        ],
      }),
      qemuGuest({
        vmid: 130,
        name: "legacy-erp",
        node: "pve2",
        status: "stopped",
        cpus: 2,
        memoryMiB: 4096,
        nics: [{ model: "rtl8139", mac: "BC:24:11:4A:60:30" }],
      }),
      qemuGuest({
        vmid: 131,
        name: "build-runner",
        node: "pve3",
        cpus: 4,
        memoryMiB: 8192,
        tags: ["ci"],
        nics: [{ mac: "BC:24:11:4A:60:31", guestIps: ["10.10.0.31/24"] }],
        agentReply: { state: "silent" },
      }),
      qemuGuest({
        vmid: 132,
        name: "appliance",
        node: "pve1",
        cpus: 2,
        memoryMiB: 2048,
        agent: false,
        nics: [{ mac: "BC:24:11:4A:60:32" }],
      }),
      qemuGuest({
        vmid: 9000,
        name: "ubuntu-24.04-template",
        node: "pve1",
        status: "stopped",
        template: true,
        nics: [{ mac: "BC:24:11:4A:90:00" }],
        disks: [
          { bus: "scsi", index: 0, sizeGiB: 8 },
          { bus: "ide", index: 2, cdrom: true },
        ],
        extraConfig: { ipconfig0: "ip=dhcp", ciuser: "ubuntu" },
      }),
      lxcGuest({
        vmid: 200,
        name: "dns-01",
        node: "pve1",
        tags: ["infra"],
        nics: [
          {
            mac: "BC:24:11:5B:00:01",
            ip: "10.10.0.53/24",
            gw: "10.10.0.1",
            ip6: "2001:db8:10::53/64",
          },
        ],
      }),
      lxcGuest({
        vmid: 201,
        name: "proxy",
        node: "pve2",
        cpus: 2,
        memoryMiB: 1024,
        nics: [{ mac: "BC:24:11:5B:00:02", ip: "dhcp", ip6: "auto", leasedIp: "10.10.0.140/24" }],
      }),
      lxcGuest({
        vmid: 202,
        name: "monitoring",
        node: "pve3",
        cpus: 2,
        memoryMiB: 4096,
        rootfsGiB: 64,
        tags: ["infra", "monitoring"],
        nics: [
          { mac: "BC:24:11:5B:00:03", ip: "10.10.0.60/24", gw: "10.10.0.1" },
          { mac: "BC:24:11:5B:01:03", bridge: "vmbr1", ip: "10.20.0.60/24" },
        ],
      }),
      lxcGuest({
        vmid: 203,
        name: "old-wiki",
        node: "pve2",
        status: "stopped",
        nics: [{ mac: "BC:24:11:5B:00:04", ip: "dhcp" }],
      }),
      qemuGuest({
        vmid: 140,
        name: "backup-01",
        node: "pve4",
        cpus: 4,
        memoryMiB: 8192,
        nics: [{ mac: "BC:24:11:4A:70:40", guestIps: ["10.10.0.40/24"] }],
        disks: [{ bus: "virtio", index: 0, sizeGiB: 2000, storage: "local-zfs" }],
      }),
      lxcGuest({
        vmid: 204,
        name: "mirror",
        node: "pve4",
        nics: [{ mac: "BC:24:11:5B:00:05", ip: "10.10.0.70/24" }],
      }),
    ],
  });
}
