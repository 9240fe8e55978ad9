// What differs between vCenter 7.0 U3 and 8.0 U3 in the endpoints Hyperlens reads. Only sourced
// differences are modelled; everything else (session, VM list filters, the 4,000 cap and its 500
// UNABLE_TO_ALLOCATE_RESOURCE, hosts, clusters, identity, NVMe disks, disk backings, NIC emulation
// types, guest networking) is the same in both API references.
//
// Sources: fixtures/vsphere/schema/vsphere-7.0.3-selected.json (the 7.0.3 swagger) for 7.0.3;
// the vSphere Automation SDK's `com.vmware.vcenter.vm_client` (8.0.3 stubs: "added in vSphere API
// 8.0.0.1 / 8.0.2.0 / 8.0.3.0") and the vSphere Automation API 8.0 reference
// (Vm_Hardware_Version, Vm_Hardware_Ethernet_Info/CreateSpec) for 8.0.

/** The vCenter releases the stand-in imitates. */
export type VcenterRelease = "7.0.3" | "8.0.3";

/** Every release the stand-in imitates, oldest first. */
export const VCENTER_RELEASES: readonly VcenterRelease[] = ["7.0.3", "8.0.3"];

/** The stand-in's release when none is asked for: the newest. */
export const DEFAULT_VCENTER_RELEASE: VcenterRelease = "8.0.3";

/** Behaviour of one release in the endpoints Hyperlens reads. */
export interface VcenterReleaseTraits {
  release: VcenterRelease;
  /** `Hardware.Version` values this release knows, oldest first. */
  hardwareVersions: readonly string[];
  /** The hardware version new VMs of the generator get most often. */
  defaultHardwareVersion: string;
  /** `guest_OS` values this release knows beyond those of 7.0.3. */
  addedGuestOs: readonly string[];
  /** Ethernet.Info carries `upt_v2_compatibility_enabled` (vSphere API 8.0.0.1). */
  nicHasUptV2: boolean;
}

const HARDWARE_7 = [
  "VMX_03",
  "VMX_04",
  "VMX_06",
  "VMX_07",
  "VMX_08",
  "VMX_09",
  "VMX_10",
  "VMX_11",
  "VMX_12",
  "VMX_13",
  "VMX_14",
  "VMX_15",
  "VMX_16",
  "VMX_17",
  "VMX_18",
  "VMX_19",
];

/** `guest_OS` values added in vSphere API 8.0.0.1 … 8.0.3.0, none of them in the 7.0.3 enum. */
const GUEST_OS_8 = [
  "WINDOWS_11_64",
  "WINDOWS_12_64",
  "WINDOWS_SERVER_2025",
  "FREEBSD_14",
  "FREEBSD_14_64",
  "DEBIAN_12",
  "DEBIAN_12_64",
  "OTHER_6X_LINUX",
  "OTHER_6X_LINUX_64",
  "ROCKYLINUX_64",
  "ALMALINUX_64",
  "VMKERNEL_8",
  "CRXSYS_1",
];

const TRAITS: Record<VcenterRelease, VcenterReleaseTraits> = {
  "7.0.3": {
    release: "7.0.3",
    hardwareVersions: HARDWARE_7,
    defaultHardwareVersion: "VMX_19",
    addedGuestOs: [],
    nicHasUptV2: false,
  },
  "8.0.3": {
    release: "8.0.3",
    // VMX_20 from vSphere API 8.0.0.1 (ESXi 8.0), VMX_21 from 8.0.2.0 (ESXi 8.0 U2).
    hardwareVersions: [...HARDWARE_7, "VMX_20", "VMX_21"],
    defaultHardwareVersion: "VMX_21",
    addedGuestOs: GUEST_OS_8,
    nicHasUptV2: true,
  },
};

/** The traits of one release. */
export function vcenterReleaseTraits(release: VcenterRelease): VcenterReleaseTraits {
  return TRAITS[release];
}

/**
 * Why a VM with this hardware version and guest OS cannot exist on `release` (a value only a
 * later release knows), or undefined. Values no release here knows pass: they stand for a newer
 * vCenter than the stand-in imitates, which is what a client must survive.
 */
export function releaseConflict(
  release: VcenterRelease,
  vm: { id: string; hardwareVersion: string; guestOs: string },
): string | undefined {
  const own = TRAITS[release];
  for (const later of VCENTER_RELEASES.map((r) => TRAITS[r])) {
    if (later.release === release) continue;
    if (later.hardwareVersions.includes(vm.hardwareVersion)) {
      if (!own.hardwareVersions.includes(vm.hardwareVersion)) {
        return `VM ${vm.id}: vCenter ${release} does not know hardware version ${vm.hardwareVersion} (vCenter ${later.release} does)`;
      }
    }
    if (later.addedGuestOs.includes(vm.guestOs) && !own.addedGuestOs.includes(vm.guestOs)) {
      return `VM ${vm.id}: vCenter ${release} does not know guest OS ${vm.guestOs} (vCenter ${later.release} does)`;
    }
  }
  return undefined;
}

/** Refuses VMs that the release could not hold, naming the first VM and the value. */
export function assertModelFitsRelease(
  vms: Iterable<{ id: string; hardwareVersion: string; guestOs: string }>,
  release: VcenterRelease,
): void {
  for (const vm of vms) {
    const conflict = releaseConflict(release, vm);
    if (conflict) throw new RangeError(conflict);
  }
}
