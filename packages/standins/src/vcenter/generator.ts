import { SeededRandom } from "../random.ts";
import {
  extraInterface,
  nicInterface,
  vcenterDisk,
  vcenterMac,
  vcenterNic,
  vcenterUuid,
} from "./builders.ts";
import {
  type VcenterCluster,
  type VcenterDatacenter,
  type VcenterFolder,
  type VcenterHost,
  VcenterModel,
  type VcenterVm,
} from "./model.ts";
import {
  DEFAULT_VCENTER_RELEASE,
  type VcenterRelease,
  type VcenterReleaseTraits,
  vcenterReleaseTraits,
} from "./releases.ts";

/** Options of {@link generateVcenter}. */
export interface GenerateVcenterOptions {
  /** Datacenters, named dc1…dcN. Default 1. */
  datacenters?: number;
  /** Clusters per datacenter. Default 2. */
  clustersPerDc?: number;
  /** Hosts per cluster. Default 3. */
  hostsPerCluster?: number;
  /** VMs in total, spread round-robin over the hosts and over three folders per datacenter. Default 100. */
  vms?: number;
  /** PRNG seed; the same seed gives the same inventory. Default 1. */
  seed?: number;
  /**
   * The release whose guest OS and hardware versions the VMs get (default
   * {@link DEFAULT_VCENTER_RELEASE}): 8.0.3 adds AlmaLinux, Rocky, Windows Server 2025, VMX_20/21.
   */
  release?: VcenterRelease;
}

const ROLES = ["web", "api", "db", "cache", "k8s", "ci", "mail", "vpn", "mon", "files"];
const GUEST_OS = ["UBUNTU_64", "UBUNTU_64", "RHEL_9_64", "DEBIAN_11_64", "WINDOWS_SERVER_2021"];
const GUEST_OS_8 = ["DEBIAN_12_64", "ROCKYLINUX_64", "ALMALINUX_64", "WINDOWS_SERVER_2025"];
const MEMORY_MIB = [1024, 2048, 4096, 4096, 8192, 16384];
const DISK_GIB = [20, 40, 40, 80, 100, 250];
const FOLDERS = ["prod", "dev", "infra"];

/** Guest OS and hardware versions of one release, the newest most often. */
function releasePools(traits: VcenterReleaseTraits) {
  const newest = traits.hardwareVersions.slice(-3);
  return {
    guestOs: [...GUEST_OS, ...GUEST_OS_8.filter((os) => traits.addedGuestOs.includes(os))],
    hardware: [traits.defaultHardwareVersion, traits.defaultHardwareVersion, ...newest],
  };
}

/**
 * A deterministic vCenter of any size for scale tests and benchmarks (10,000 VMs build in well
 * under a second): powered-off VMs, running VMs with Tools stopped, docker0 and vEthernet guest
 * interfaces that are not VM NICs, MACs reported in upper case by some guests, NVMe disks, and
 * the guest OS and hardware versions of the chosen release.
 */
export function generateVcenter(options: GenerateVcenterOptions = {}): VcenterModel {
  const random = new SeededRandom(options.seed ?? 1);
  const dcCount = options.datacenters ?? 1;
  const clustersPerDc = options.clustersPerDc ?? 2;
  const hostsPerCluster = options.hostsPerCluster ?? 3;
  const vmCount = options.vms ?? 100;
  const pools = releasePools(vcenterReleaseTraits(options.release ?? DEFAULT_VCENTER_RELEASE));

  const datacenters: VcenterDatacenter[] = [];
  const clusters: VcenterCluster[] = [];
  const hosts: VcenterHost[] = [];
  const folders: VcenterFolder[] = [];
  let next = 1000;
  for (let d = 1; d <= dcCount; d += 1) {
    const dc = { id: `datacenter-${next++}`, name: `dc${d}` };
    datacenters.push(dc);
    for (const name of FOLDERS) folders.push({ id: `group-v${next++}`, name, datacenterId: dc.id });
    for (let c = 1; c <= clustersPerDc; c += 1) {
      const cluster = {
        id: `domain-c${next++}`,
        name: `dc${d}-cluster${c}`,
        datacenterId: dc.id,
        haEnabled: true,
        drsEnabled: c % 2 === 1,
      };
      clusters.push(cluster);
      for (let h = 1; h <= hostsPerCluster; h += 1) {
        hosts.push({
          id: `host-${next++}`,
          name: `esx-${d}-${c}-${h}.lab.example`,
          datacenterId: dc.id,
          clusterId: cluster.id,
          connectionState: "CONNECTED",
        });
      }
    }
  }
  if (hosts.length === 0 && vmCount > 0) throw new RangeError("VMs need at least one host");

  const vms: VcenterVm[] = [];
  for (let i = 0; i < vmCount; i += 1) {
    const host = hosts[i % hosts.length] as VcenterHost;
    const dcFolders = folders.filter((f) => f.datacenterId === host.datacenterId);
    const folder = dcFolders[i % dcFolders.length] as VcenterFolder;
    const name = `${random.pick(ROLES)}-${String(i + 1).padStart(5, "0")}`;
    const nicCount = random.chance(0.15) ? 2 : 1;
    const nics = Array.from({ length: nicCount }, (_, n) =>
      vcenterNic(n, vcenterMac(i * 4 + n + 1), {
        id: `network-${20 + n}`,
        name: n === 0 ? "VM Network" : "Backup Network",
      }),
    );
    const powerState = random.chance(0.2) ? "POWERED_OFF" : "POWERED_ON";
    const isToolsRunning = powerState === "POWERED_ON" && !random.chance(0.05);
    const guestOs = random.pick(pools.guestOs);
    const upperCaseMac = random.chance(0.1);
    const guestInterfaces = nics.map((nic, n) =>
      nicInterface(nic, `10.${20 + n}.${(i >> 8) & 0xff}.${i & 0xff || 1}`, {
        upperCaseMac,
        dhcp: random.chance(0.5),
      }),
    );
    if (guestOs.startsWith("WINDOWS") && random.chance(0.3)) {
      guestInterfaces.push(extraInterface("vEthernet", i));
    } else if (random.chance(0.2)) guestInterfaces.push(extraInterface("docker0", i % 250));
    if (random.chance(0.1)) guestInterfaces.push(extraInterface("lo"));
    vms.push({
      id: `vm-${10000 + i}`,
      name,
      hostId: host.id,
      folderId: folder.id,
      powerState,
      isToolsRunning,
      cpuCount: random.pick([1, 2, 2, 4, 8]),
      memoryMiB: random.pick(MEMORY_MIB),
      guestOs,
      hardwareVersion: random.pick(pools.hardware),
      instanceUuid: vcenterUuid(random),
      biosUuid: vcenterUuid(random),
      nics,
      disks: Array.from({ length: random.chance(0.3) ? 2 : 1 }, (_, n) =>
        vcenterDisk(
          name,
          n,
          random.pick(DISK_GIB),
          `ds-${host.datacenterId}`,
          random.chance(0.15) ? "NVME" : "SCSI",
        ),
      ),
      guestInterfaces,
    });
  }
  return new VcenterModel({ datacenters, clusters, hosts, folders, vms });
}
