// The mutable inventory of the vCenter stand-in: datacenters, clusters, hosts, VM folders and VMs
// with their virtual NICs, disks and what VMware Tools reports inside the guest.

/** A datacenter (`datacenter-3`). */
export interface VcenterDatacenter {
  id: string;
  name: string;
}

/** A cluster (`domain-c1006`) of one datacenter. */
export interface VcenterCluster {
  id: string;
  name: string;
  datacenterId: string;
  haEnabled: boolean;
  drsEnabled: boolean;
}

/** A host's connection state, as vCenter names it. */
export type HostConnectionState = "CONNECTED" | "DISCONNECTED" | "NOT_RESPONDING";

/** An ESXi host (`host-1013`), in a cluster or standalone in a datacenter. */
export interface VcenterHost {
  id: string;
  name: string;
  datacenterId: string;
  /** null for a standalone host. */
  clusterId: string | null;
  connectionState: HostConnectionState;
}

/** A VM folder (`group-v22`) of one datacenter. */
export interface VcenterFolder {
  id: string;
  name: string;
  datacenterId: string;
}

/** A virtual NIC; `key` is the device key ("4000"). */
export interface VcenterVmNic {
  key: string;
  label: string;
  /** Lower-case, as vCenter writes it. */
  mac: string;
  type: "VMXNET3" | "E1000E" | "E1000";
  networkId: string;
  networkName: string;
  isConnected: boolean;
}

/** A virtual disk; `key` is the device key ("2000" SCSI, "16000" SATA). */
export interface VcenterVmDisk {
  key: string;
  label: string;
  bus: "SCSI" | "SATA" | "NVME" | "IDE";
  capacityBytes: number;
  /** `[datastore1] vm/vm.vmdk`. */
  vmdkFile: string;
}

/** One address VMware Tools reports. */
export interface VcenterGuestAddress {
  address: string;
  prefixLength: number;
  origin?: "DHCP" | "MANUAL" | "LINKLAYER" | "OTHER" | "RANDOM";
}

/** A guest interface as Tools reports it; `nicKey` null for docker0, vEthernet, lo… */
export interface VcenterGuestInterface {
  nicKey: string | null;
  /** As the guest reports it: sometimes upper case. */
  mac: string;
  addresses: VcenterGuestAddress[];
}

/** A VM's power state. */
export type VcenterPowerState = "POWERED_ON" | "POWERED_OFF" | "SUSPENDED";

/** A virtual machine (`vm-1049`). */
export interface VcenterVm {
  id: string;
  name: string;
  hostId: string;
  folderId: string;
  powerState: VcenterPowerState;
  /** Whether VMware Tools is running (only meaningful while powered on). */
  isToolsRunning: boolean;
  /** Inaccessible/orphaned VMs report neither in the list: null leaves them out. */
  cpuCount: number | null;
  memoryMiB: number | null;
  /** e.g. `UBUNTU_64`, `WINDOWS_SERVER_2021`. */
  guestOs: string;
  hardwareVersion: string;
  instanceUuid: string;
  biosUuid: string;
  nics: VcenterVmNic[];
  disks: VcenterVmDisk[];
  guestInterfaces: VcenterGuestInterface[];
  /** What Tools report as the guest's hostname (guest/identity `host_name`); default: the VM's name. */
  guestHostName?: string;
  /** The readable OS name Tools report (guest/identity `full_name`); default: the guestOs code. */
  guestFullName?: string;
}

/** Everything a {@link VcenterModel} starts with. */
export interface VcenterSpec {
  datacenters: VcenterDatacenter[];
  clusters: VcenterCluster[];
  hosts: VcenterHost[];
  folders: VcenterFolder[];
  vms: VcenterVm[];
}

/**
 * The live inventory a vCenter stand-in serves. Tests mutate it between syncs: add, remove or
 * move a VM between hosts, power it on or off, start or stop VMware Tools, take a host offline.
 */
export class VcenterModel {
  readonly datacenters: VcenterDatacenter[];
  readonly clusters: VcenterCluster[];
  readonly hosts: VcenterHost[];
  readonly folders: VcenterFolder[];
  readonly #vms = new Map<string, VcenterVm>();

  constructor(spec: VcenterSpec) {
    this.datacenters = [...spec.datacenters];
    this.clusters = [...spec.clusters];
    this.hosts = [...spec.hosts];
    this.folders = [...spec.folders];
    for (const vm of spec.vms) this.addVm(vm);
  }

  /** Every VM, in insertion order. */
  get vms(): VcenterVm[] {
    return [...this.#vms.values()];
  }

  vm(id: string): VcenterVm | undefined {
    return this.#vms.get(id);
  }

  host(id: string): VcenterHost | undefined {
    return this.hosts.find((h) => h.id === id);
  }

  cluster(id: string): VcenterCluster | undefined {
    return this.clusters.find((c) => c.id === id);
  }

  folder(id: string): VcenterFolder | undefined {
    return this.folders.find((f) => f.id === id);
  }

  /** The datacenter a VM runs in (through its host). */
  datacenterOf(vm: VcenterVm): string | undefined {
    return this.host(vm.hostId)?.datacenterId;
  }

  /** Adds a VM; its host and folder must exist and its id must be new. */
  addVm(vm: VcenterVm): VcenterVm {
    if (this.#vms.has(vm.id)) throw new RangeError(`VM ${vm.id} exists already`);
    if (!this.host(vm.hostId)) throw new RangeError(`no host ${vm.hostId}`);
    if (!this.folder(vm.folderId)) throw new RangeError(`no folder ${vm.folderId}`);
    this.#vms.set(vm.id, vm);
    return vm;
  }

  /** Removes a VM; true when it existed. */
  removeVm(id: string): boolean {
    return this.#vms.delete(id);
  }

  /** Moves a VM to another host (vMotion). */
  moveVm(id: string, hostId: string): void {
    if (!this.host(hostId)) throw new RangeError(`no host ${hostId}`);
    this.#must(id).hostId = hostId;
  }

  /** Powers a VM on, off or suspends it; Tools stops with the VM and starts with it. */
  setPower(id: string, state: VcenterPowerState): void {
    const vm = this.#must(id);
    vm.powerState = state;
    vm.isToolsRunning = state === "POWERED_ON";
  }

  /** Starts or stops VMware Tools inside a running VM. */
  setTools(id: string, isRunning: boolean): void {
    this.#must(id).isToolsRunning = isRunning;
  }

  /** Changes a host's connection state. */
  setHostState(id: string, state: HostConnectionState): void {
    const host = this.host(id);
    if (!host) throw new RangeError(`no host ${id}`);
    host.connectionState = state;
  }

  #must(id: string): VcenterVm {
    const vm = this.#vms.get(id);
    if (!vm) throw new RangeError(`no VM ${id}`);
    return vm;
  }
}
