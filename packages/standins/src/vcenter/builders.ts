import { SeededRandom } from "../random.ts";
import type { VcenterGuestInterface, VcenterVm, VcenterVmDisk, VcenterVmNic } from "./model.ts";

/** A VMware-assigned MAC (`00:50:56:…`) from a number, lower case as vCenter writes it. */
export function vcenterMac(n: number): string {
  const bytes = [(n >> 16) & 0x3f, (n >> 8) & 0xff, n & 0xff];
  return ["00", "50", "56", ...bytes.map((b) => b.toString(16).padStart(2, "0"))].join(":");
}

/** A UUID-shaped string from a seeded PRNG. */
export function vcenterUuid(random: SeededRandom): string {
  const h = random.hex(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A virtual NIC with device key 4000 + index. */
export function vcenterNic(
  index: number,
  mac: string,
  network = { id: "network-11", name: "VM Network" },
): VcenterVmNic {
  return {
    key: String(4000 + index),
    label: `Network adapter ${index + 1}`,
    mac,
    type: "VMXNET3",
    networkId: network.id,
    networkName: network.name,
    isConnected: true,
  };
}

/** A disk (SCSI unless told otherwise) with device key 2000 + index. */
export function vcenterDisk(
  vmName: string,
  index: number,
  capacityGiB: number,
  datastore = "datastore1",
  bus: VcenterVmDisk["bus"] = "SCSI",
): VcenterVmDisk {
  return {
    key: String(2000 + index),
    label: `Hard disk ${index + 1}`,
    bus,
    capacityBytes: capacityGiB * 1024 ** 3,
    vmdkFile: `[${datastore}] ${vmName}/${vmName}${index === 0 ? "" : `_${index}`}.vmdk`,
  };
}

/** The guest interface Tools reports for a virtual NIC, with an IPv4 and its link-local IPv6. */
export function nicInterface(
  nic: VcenterVmNic,
  ipv4: string,
  options: { upperCaseMac?: boolean; dhcp?: boolean } = {},
): VcenterGuestInterface {
  const suffix = nic.mac.split(":").slice(3).join("");
  return {
    nicKey: nic.key,
    mac: options.upperCaseMac ? nic.mac.toUpperCase() : nic.mac,
    addresses: [
      { address: ipv4, prefixLength: 24, origin: options.dhcp ? "DHCP" : "MANUAL" },
      {
        address: `fe80::250:56ff:fe${suffix.slice(0, 2)}:${suffix.slice(2)}`,
        prefixLength: 64,
        origin: "LINKLAYER",
      },
    ],
  };
}

/** A guest-internal interface that is not a virtual NIC: docker0, a Hyper-V vEthernet, lo. */
export function extraInterface(kind: "docker0" | "vEthernet" | "lo", n = 1): VcenterGuestInterface {
  switch (kind) {
    case "docker0":
      return {
        nicKey: null,
        mac: `02:42:ac:11:00:${n.toString(16).padStart(2, "0")}`,
        addresses: [{ address: "172.17.0.1", prefixLength: 16 }],
      };
    case "vEthernet":
      return {
        nicKey: null,
        mac: `00-15-5D-00-0${n % 10}-01`.replaceAll("-", ":"),
        addresses: [{ address: `172.24.${n % 250}.1`, prefixLength: 20, origin: "MANUAL" }],
      };
    case "lo":
      return {
        nicKey: null,
        mac: "00:00:00:00:00:00",
        addresses: [{ address: "127.0.0.1", prefixLength: 8 }],
      };
  }
}

/** Everything a VM needs besides what a test cares about. */
export function vcenterVm(
  spec: Partial<VcenterVm> & Pick<VcenterVm, "id" | "name" | "hostId" | "folderId">,
  seed = 1,
): VcenterVm {
  const random = new SeededRandom(seed);
  return {
    powerState: "POWERED_ON",
    isToolsRunning: true,
    cpuCount: 2,
    memoryMiB: 4096,
    guestOs: "UBUNTU_64",
    hardwareVersion: "VMX_19",
    instanceUuid: vcenterUuid(random),
    biosUuid: vcenterUuid(random),
    nics: [],
    disks: [],
    guestInterfaces: [],
    ...spec,
  };
}
