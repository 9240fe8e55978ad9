import { describe, expect, it } from "vitest";
import { isAgentEnabled } from "./agent-flag.ts";
import { parseLxcVolume, parseQemuDisk } from "./disks.ts";
import { parseLxcNic } from "./lxc-nic.ts";
import { parseQemuNic } from "./qemu-nic.ts";
import { parseSizeToBytes } from "./size.ts";
import { parseTags } from "./tags.ts";

describe("QEMU NIC lines", () => {
  it.each([
    "virtio",
    "e1000",
    "e1000e",
    "vmxnet3",
    "rtl8139",
    "e1000-82540em",
    "ne2k_pci",
    "some-future-model",
  ])("reads the MAC of any model (%s), lower-cased", (model) => {
    const nic = parseQemuNic("net3", `${model}=AA:BB:CC:DD:EE:0F,bridge=vmbr0,tag=10,firewall=1`);
    expect(nic).toEqual({
      key: "net3",
      index: 3,
      model,
      mac: "aa:bb:cc:dd:ee:0f",
      bridge: "vmbr0",
      vlanTag: 10,
      isFirewalled: true,
      isLinkDown: false,
    });
  });

  it("reads the explicit model=/macaddr= form", () => {
    const nic = parseQemuNic(
      "net0",
      "model=virtio,macaddr=BC:24:11:00:00:01,bridge=vmbr1,link_down=1",
    );
    expect(nic?.model).toBe("virtio");
    expect(nic?.mac).toBe("bc:24:11:00:00:01");
    expect(nic?.isLinkDown).toBe(true);
  });

  it("ignores keys that are not netN", () => {
    expect(parseQemuNic("ipconfig0", "ip=dhcp")).toBeNull();
    expect(parseQemuNic("network", "virtio=AA:BB:CC:DD:EE:FF")).toBeNull();
  });
});

describe("container NIC lines", () => {
  it("reads a static address with gateway and IPv6", () => {
    const nic = parseLxcNic(
      "net0",
      "name=eth0,bridge=vmbr0,hwaddr=AA:BB:CC:DD:EE:FF,ip=10.0.0.5/24,gw=10.0.0.1,ip6=fd00::5/64,gw6=fd00::1,type=veth,tag=7",
    );
    expect(nic).toMatchObject({
      name: "eth0",
      mac: "aa:bb:cc:dd:ee:ff",
      bridge: "vmbr0",
      vlanTag: 7,
      ipv4: { kind: "static", cidr: "10.0.0.5/24", address: "10.0.0.5", prefix: 24 },
      gateway4: "10.0.0.1",
      ipv6: { kind: "static", address: "fd00::5", prefix: 64 },
      gateway6: "fd00::1",
    });
  });

  it("ip=dhcp is 'assigned by DHCP', not an address", () => {
    const nic = parseLxcNic("net0", "name=eth0,ip=dhcp,ip6=auto");
    expect(nic?.ipv4).toEqual({ kind: "dhcp" });
    expect(nic?.ipv6).toEqual({ kind: "auto" });
    expect(parseLxcNic("net1", "name=eth1,ip6=dhcp")?.ipv6).toEqual({ kind: "dhcp" });
    expect(parseLxcNic("net1", "name=eth1,ip=manual,ip6=manual")?.ipv4).toEqual({ kind: "manual" });
  });

  it("a line without hwaddr or ip has neither", () => {
    expect(parseLxcNic("net20", "name=eth20,bridge=vmbr20")).toMatchObject({
      index: 20,
      mac: null,
      ipv4: null,
      ipv6: null,
    });
  });
});

describe("disk lines", () => {
  it.each([
    ["scsi0", "local-lvm:vm-100-disk-0,size=32G", 32 * 1024 ** 3],
    ["virtio0", "ceph:vm-110-disk-1,size=100G", 100 * 1024 ** 3],
    ["sata1", "storage:vm-102-disk-0,size=512M", 512 * 1024 ** 2],
    ["ide0", "local:100/vm-100-disk-0.qcow2,size=1T", 1024 ** 4],
    ["scsi2", "local-lvm:vm-100-disk-2,iothread=1,size=1536K", 1536 * 1024],
  ])("%s: %s", (key, line, bytes) => {
    expect(parseQemuDisk(key, line)?.sizeBytes).toBe(bytes);
  });

  it("skips CD-ROMs, `none`, and keys that are not disks", () => {
    expect(parseQemuDisk("ide2", "none,media=cdrom")).toBeNull();
    expect(parseQemuDisk("ide2", "local:iso/debian-12.iso,media=cdrom")).toBeNull();
    expect(parseQemuDisk("ide0", "local-lvm:vm-101-cloudinit,media=cdrom,size=4M")).toBeNull();
    expect(parseQemuDisk("scsi1", "none")).toBeNull();
    expect(parseQemuDisk("unused0", "local-lvm:vm-101-unused")).toBeNull();
    expect(parseQemuDisk("efidisk0", "local-lvm:vm-101-disk-9,size=4M")).toBeNull();
  });

  it("reads container rootfs and mount points", () => {
    expect(parseLxcVolume("rootfs", "local-lvm:vm-100-disk-0,size=8G")).toEqual({
      key: "rootfs",
      bus: "rootfs",
      volume: "local-lvm:vm-100-disk-0",
      storage: "local-lvm",
      sizeBytes: 8 * 1024 ** 3,
      mountPoint: "/",
    });
    expect(parseLxcVolume("mp3", "tank:subvol-100-disk-1,mp=/data,size=20G")).toMatchObject({
      storage: "tank",
      sizeBytes: 20 * 1024 ** 3,
      mountPoint: "/data",
    });
    expect(parseLxcVolume("mp0", "/mnt/foo/bar,mp=/storage")).toMatchObject({
      storage: null,
      sizeBytes: null,
      mountPoint: "/storage",
    });
    expect(parseLxcVolume("dev0", "/dev/sdb")).toBeNull();
  });
});

describe("small values", () => {
  it("sizes have binary K/M/G/T suffixes; bare numbers are bytes", () => {
    expect(parseSizeToBytes("4M")).toBe(4 * 1024 * 1024);
    expect(parseSizeToBytes("1.5G")).toBe(1.5 * 1024 ** 3);
    expect(parseSizeToBytes("2T")).toBe(2 * 1024 ** 4);
    expect(parseSizeToBytes("123")).toBe(123);
    expect(parseSizeToBytes("lots")).toBeNull();
    expect(parseSizeToBytes(undefined)).toBeNull();
  });

  it("tags split on ;, comma and space", () => {
    expect(parseTags("prod;web")).toEqual(["prod", "web"]);
    expect(parseTags("one, two, three")).toEqual(["one", "two", "three"]);
    expect(parseTags("a b;c,d")).toEqual(["a", "b", "c", "d"]);
    expect(parseTags(undefined)).toEqual([]);
  });

  it.each([
    ["1", true],
    ["1,fstrim_cloned_disks=1", true],
    ["enabled=1,fstrim_cloned_disks=1", true],
    ["1,type=virtio", true],
    [1, true],
    ["0", false],
    ["enabled=0", false],
    ["0,fstrim_cloned_disks=1", false],
    [undefined, false],
  ])("agent %s → %s", (value, enabled) => {
    expect(isAgentEnabled(value)).toBe(enabled);
  });
});
