// The JSON shapes of the vSphere Automation API (7.0.3 / 8.0): plain arrays for lists, VM.Info
// with nics/disks keyed by device key, guest interfaces with `nic` only on virtual NICs.
import type { VcenterCluster, VcenterHost, VcenterModel, VcenterVm } from "./model.ts";
import type { VcenterReleaseTraits } from "./releases.ts";

/** VM.Summary; `cpu_count`/`memory_size_MiB` left out when unknown, as vCenter does. */
export function vmSummary(vm: VcenterVm): Record<string, unknown> {
  return {
    ...(vm.memoryMiB === null ? {} : { memory_size_MiB: vm.memoryMiB }),
    vm: vm.id,
    name: vm.name,
    power_state: vm.powerState,
    ...(vm.cpuCount === null ? {} : { cpu_count: vm.cpuCount }),
  };
}

function busAddress(index: number, bus: string): Record<string, unknown> {
  const key = bus.toLowerCase();
  return key === "nvme" || key === "ide"
    ? { [key]: { primary: true, master: index === 0, bus: 0, unit: index } }
    : { [key]: { bus: 0, unit: index } };
}

/** The disk controllers VM.Info lists: one per bus its disks use (NVMe from vSphere API 7.0.0.1). */
function adapters(vm: VcenterVm, bus: "SCSI" | "SATA" | "NVME"): Record<string, unknown> {
  if (!vm.disks.some((disk) => disk.bus === bus)) return {};
  switch (bus) {
    case "SCSI":
      return {
        "1000": {
          label: "SCSI controller 0",
          type: "PVSCSI",
          scsi: { bus: 0, unit: 7 },
          pci_slot_number: 160,
          sharing: "NONE",
        },
      };
    case "SATA":
      return { "15000": { label: "SATA controller 0", type: "AHCI", bus: 0, pci_slot_number: 32 } };
    case "NVME":
      return { "31000": { label: "NVMe controller 0", bus: 0, pci_slot_number: 224 } };
  }
}

/**
 * VM.Info, shaped like the recorded `vcenter_vm/GET.200.vm-1049.json` (a vCenter 7); vCenter 8's
 * NICs also carry `upt_v2_compatibility_enabled`.
 */
export function vmInfo(vm: VcenterVm, release: VcenterReleaseTraits): Record<string, unknown> {
  const nics = Object.fromEntries(
    vm.nics.map((nic, index) => [
      nic.key,
      {
        start_connected: nic.isConnected,
        pci_slot_number: 160 + index * 32,
        backing: {
          network_name: nic.networkName,
          type: "STANDARD_PORTGROUP",
          network: nic.networkId,
        },
        mac_address: nic.mac,
        mac_type: "ASSIGNED",
        allow_guest_control: false,
        wake_on_lan_enabled: false,
        label: nic.label,
        state: vm.powerState === "POWERED_ON" && nic.isConnected ? "CONNECTED" : "NOT_CONNECTED",
        type: nic.type,
        upt_compatibility_enabled: false,
        ...(release.nicHasUptV2 ? { upt_v2_compatibility_enabled: false } : {}),
      },
    ]),
  );
  const disks = Object.fromEntries(
    vm.disks.map((disk, index) => [
      disk.key,
      {
        label: disk.label,
        type: disk.bus,
        ...busAddress(index, disk.bus),
        backing: { vmdk_file: disk.vmdkFile, type: "VMDK_FILE" },
        capacity: disk.capacityBytes,
      },
    ]),
  );
  return {
    guest_OS: vm.guestOs,
    name: vm.name,
    identity: { name: vm.name, bios_uuid: vm.biosUuid, instance_uuid: vm.instanceUuid },
    power_state: vm.powerState,
    instant_clone_frozen: false,
    hardware: { upgrade_policy: "NEVER", upgrade_status: "NONE", version: vm.hardwareVersion },
    boot: { delay: 0, retry_delay: 10000, enter_setup_mode: false, type: "BIOS", retry: false },
    boot_devices: [],
    cpu: {
      hot_remove_enabled: false,
      count: vm.cpuCount ?? 1,
      hot_add_enabled: false,
      cores_per_socket: 1,
    },
    memory: { hot_add_enabled: true, size_MiB: vm.memoryMiB ?? 1024 },
    disks,
    nics,
    cdroms: {},
    floppies: {},
    parallel_ports: {},
    serial_ports: {},
    sata_adapters: adapters(vm, "SATA"),
    scsi_adapters: adapters(vm, "SCSI"),
    nvme_adapters: adapters(vm, "NVME"),
  };
}

/** The guest networking interfaces as Tools reports them. */
export function guestInterfaces(vm: VcenterVm): Record<string, unknown>[] {
  return vm.guestInterfaces.map((iface) => ({
    ...(iface.nicKey === null ? {} : { nic: iface.nicKey }),
    mac_address: iface.mac,
    ip: {
      ip_addresses: iface.addresses.map((a) => ({
        ip_address: a.address,
        prefix_length: a.prefixLength,
        ...(a.origin ? { origin: a.origin } : {}),
        state: a.origin === "LINKLAYER" ? "UNKNOWN" : "PREFERRED",
      })),
    },
  }));
}

/** Guest.Identity.Info: what Tools report about the guest (fixtures/vsphere/vcenter_vm_guest_identity). */
export function guestIdentity(vm: VcenterVm): Record<string, unknown> {
  const label = vm.guestFullName ?? vm.guestOs;
  return {
    full_name: {
      args: [],
      default_message: label,
      id: `vmsg.guestos.${vm.guestOs.toLowerCase()}Guest.label`,
    },
    name: vm.guestOs,
    host_name: vm.guestHostName ?? vm.name.toLowerCase(),
    family: vm.guestOs.startsWith("WINDOWS") ? "WINDOWS" : "LINUX",
  };
}

/** Host.Summary; `power_state` only while CONNECTED. */
export function hostSummary(host: VcenterHost): Record<string, unknown> {
  return {
    connection_state: host.connectionState,
    host: host.id,
    name: host.name,
    ...(host.connectionState === "CONNECTED" ? { power_state: "POWERED_ON" } : {}),
  };
}

/** Cluster.Summary. */
export function clusterSummary(cluster: VcenterCluster): Record<string, unknown> {
  return {
    drs_enabled: cluster.drsEnabled,
    cluster: cluster.id,
    name: cluster.name,
    ha_enabled: cluster.haEnabled,
  };
}

/** The cluster a VM runs in (through its host), if any. */
export function clusterOfVm(model: VcenterModel, vm: VcenterVm): string | null {
  return model.host(vm.hostId)?.clusterId ?? null;
}
