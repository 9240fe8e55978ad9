/** Power state as the query service reports it. */
export type VcdVmStatus = "POWERED_ON" | "POWERED_OFF" | "SUSPENDED";

/** How Director hands out a NIC's address. */
export type IpAllocationMode = "POOL" | "DHCP" | "MANUAL" | "NONE";

/** An organization (tenant). IDs in the model are bare UUIDs; answers render URNs and hrefs. */
export interface VcdOrg {
  id: string;
  /** Login name (`user@<name>`), compared case-insensitively as Director does. */
  name: string;
  fullName: string;
}

/** An organization VDC. */
export interface VcdVdc {
  id: string;
  name: string;
  orgId: string;
}

/** A VDC group (several VDCs sharing networks and, possibly, an edge gateway). */
export interface VcdVdcGroup {
  id: string;
  name: string;
  orgId: string;
  vdcIds: string[];
}

/** A vApp, or a vApp template in a catalog when `template` is set. */
export interface VcdVapp {
  id: string;
  name: string;
  vdcId: string;
  /** Templates are served under `/api/vAppTemplate/` and flagged `isVAppTemplate="true"`. */
  template: boolean;
  /** Catalog of a template. */
  catalogName?: string;
}

/** One network connection of a VM. */
export interface VcdNic {
  index: number;
  /** Network name; `"none"` for a disconnected template NIC. */
  network: string;
  mac: string;
  ipAddress?: string;
  /** NAT address (only behind a NAT-routed vApp network). */
  externalIpAddress?: string;
  allocationMode: IpAllocationMode;
  connected: boolean;
  /** VMXNET3, E1000E, PCNet32… */
  adapterType: string;
}

/** One virtual disk. */
export interface VcdDisk {
  /** Capacity in MB, as `HostResource@capacity` reports it. */
  sizeMb: number;
  /** SCSI controller subtype the disk hangs off; default `lsilogicsas`. */
  controller?: string;
}

/** A virtual machine, in a vApp or a vApp template. */
export interface VcdVm {
  id: string;
  name: string;
  vappId: string;
  status: VcdVmStatus;
  cpus: number;
  memoryMb: number;
  /** Guest OS as Director names it, e.g. `Ubuntu Linux (64-bit)`. */
  guestOs: string;
  hardwareVersion: number;
  nics: VcdNic[];
  primaryNicIndex: number;
  disks: VcdDisk[];
  storageProfileName: string;
  /** The backing vCenter's managed object reference, e.g. `vm-1234` (provider queries only). */
  moref: string;
  /** The {@link VcdVcenter} backing the VM; default the model's first (`model.vcenter`). */
  vcenterId?: string;
  hostName: string;
  datastoreName: string;
  vmToolsVersion: string;
  /** ISO timestamp. */
  dateCreated: string;
}

/** Who owns an edge gateway: a VDC or a VDC group. */
export type EdgeGatewayOwner = { kind: "vdc"; id: string } | { kind: "vdcGroup"; id: string };

/** An NSX-T edge gateway with one uplink. */
export interface VcdEdgeGateway {
  id: string;
  name: string;
  description: string;
  owner: EdgeGatewayOwner;
  uplinkName: string;
  gateway: string;
  prefixLength: number;
  primaryIp: string;
  orgVdcNetworkCount: number;
}

/**
 * A vCenter Server registered in Director: named in admin VM records (`vc` is
 * `…/api/admin/extension/vimServer/<id>`) and listed to providers at
 * `GET /cloudapi/1.0.0/virtualCenters`.
 */
export interface VcdVcenter {
  /** The vimServer UUID. */
  id: string;
  name: string;
  /** The address it was registered with, e.g. `https://vc01.example.test` (may carry `:443` or a path). */
  url: string;
  /** The vCenter's own instance UUID; default derived from `id`. */
  instanceUuid?: string;
  /** Default `8.0.2`. */
  version?: string;
  /** Default true. */
  isEnabled?: boolean;
  /** Default true. */
  isConnected?: boolean;
}

/** The vCenter a model has when its spec names none. */
export const DEFAULT_VCD_VCENTER: VcdVcenter = {
  id: "0b1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  name: "vc01",
  url: "https://vc01.example.test",
};

/** The data a Director model starts from. */
export interface DirectorSpec {
  /** Site name shown in session answers; default `vcd01`. */
  site?: string;
  /** The vCenter backing every VM that names none; default {@link DEFAULT_VCD_VCENTER}. */
  vcenter?: VcdVcenter;
  /** Further registered vCenters (VMs pick one with `vcenterId`). */
  otherVcenters?: VcdVcenter[];
  orgs: VcdOrg[];
  vdcs: VcdVdc[];
  vdcGroups?: VcdVdcGroup[];
  vapps: VcdVapp[];
  vms: VcdVm[];
  edgeGateways?: VcdEdgeGateway[];
}

/** The org, VDC and vApp a VM lives in. */
export interface VmPlacement {
  org: VcdOrg;
  vdc: VcdVdc;
  vapp: VcdVapp;
}

/**
 * The mutable inventory a Director stand-in serves. Tests change it between syncs (add,
 * remove, rename VMs; change NICs and power; add or remove edge gateways); every answer is
 * rendered from the current state, so a change shows up on the next request — including
 * between two pages of the same query, as on a live Director.
 */
export class DirectorModel {
  site: string;
  /** The first registered vCenter, backing every VM that names none; replace or edit it freely. */
  vcenter: VcdVcenter;
  readonly #otherVcenters = new Map<string, VcdVcenter>();
  readonly #orgs = new Map<string, VcdOrg>();
  readonly #vdcs = new Map<string, VcdVdc>();
  readonly #vdcGroups = new Map<string, VcdVdcGroup>();
  readonly #vapps = new Map<string, VcdVapp>();
  readonly #vms = new Map<string, VcdVm>();
  readonly #edges = new Map<string, VcdEdgeGateway>();

  constructor(spec: DirectorSpec) {
    this.site = spec.site ?? "vcd01";
    this.vcenter = spec.vcenter ?? { ...DEFAULT_VCD_VCENTER };
    for (const vcenter of spec.otherVcenters ?? []) this.addVcenter(vcenter);
    for (const org of spec.orgs) this.addOrg(org);
    for (const vdc of spec.vdcs) this.addVdc(vdc);
    for (const group of spec.vdcGroups ?? []) this.addVdcGroup(group);
    for (const vapp of spec.vapps) this.addVapp(vapp);
    for (const vm of spec.vms) this.addVm(vm);
    for (const edge of spec.edgeGateways ?? []) this.addEdgeGateway(edge);
  }

  /** Every registered vCenter: {@link DirectorModel.vcenter} first, then the others in insertion order. */
  get vcenters(): VcdVcenter[] {
    return [this.vcenter, ...this.#otherVcenters.values()];
  }

  /** The vCenter backing a VM (its `vcenterId`, else the first); undefined for an unknown id. */
  vcenterOf(vm: VcdVm): VcdVcenter | undefined {
    if (vm.vcenterId === undefined || vm.vcenterId === this.vcenter.id) return this.vcenter;
    return this.#otherVcenters.get(vm.vcenterId);
  }

  /** Register a further vCenter. */
  addVcenter(vcenter: VcdVcenter): VcdVcenter {
    if (vcenter.id === this.vcenter.id) throw new Error(`duplicate vCenter id ${vcenter.id}`);
    this.#unique(this.#otherVcenters, vcenter.id, "vCenter");
    this.#otherVcenters.set(vcenter.id, vcenter);
    return vcenter;
  }

  /** Unregister a further vCenter; true if it existed. */
  removeVcenter(id: string): boolean {
    return this.#otherVcenters.delete(id);
  }

  /** Organizations in insertion order. */
  get orgs(): VcdOrg[] {
    return [...this.#orgs.values()];
  }

  /** VDCs in insertion order. */
  get vdcs(): VcdVdc[] {
    return [...this.#vdcs.values()];
  }

  /** VDC groups in insertion order. */
  get vdcGroups(): VcdVdcGroup[] {
    return [...this.#vdcGroups.values()];
  }

  /** vApps and vApp templates in insertion order. */
  get vapps(): VcdVapp[] {
    return [...this.#vapps.values()];
  }

  /** Every VM (templates included) in insertion order, the query service's order. */
  get vms(): VcdVm[] {
    return [...this.#vms.values()];
  }

  /** Edge gateways in insertion order. */
  get edgeGateways(): VcdEdgeGateway[] {
    return [...this.#edges.values()];
  }

  /** An org by UUID. */
  org(id: string): VcdOrg | undefined {
    return this.#orgs.get(id);
  }

  /** An org by login name, case-insensitively. */
  orgByName(name: string): VcdOrg | undefined {
    const wanted = name.toLowerCase();
    return this.orgs.find((org) => org.name.toLowerCase() === wanted);
  }

  /** A VDC by UUID. */
  vdc(id: string): VcdVdc | undefined {
    return this.#vdcs.get(id);
  }

  /** A VDC group by UUID. */
  vdcGroup(id: string): VcdVdcGroup | undefined {
    return this.#vdcGroups.get(id);
  }

  /** A vApp by UUID. */
  vapp(id: string): VcdVapp | undefined {
    return this.#vapps.get(id);
  }

  /** A VM by UUID. */
  vm(id: string): VcdVm | undefined {
    return this.#vms.get(id);
  }

  /** An edge gateway by UUID. */
  edgeGateway(id: string): VcdEdgeGateway | undefined {
    return this.#edges.get(id);
  }

  /** Where a VM lives; undefined if its vApp, VDC or org is missing. */
  placement(vm: VcdVm): VmPlacement | undefined {
    const vapp = this.#vapps.get(vm.vappId);
    const vdc = vapp && this.#vdcs.get(vapp.vdcId);
    const org = vdc && this.#orgs.get(vdc.orgId);
    return vapp && vdc && org ? { org, vdc, vapp } : undefined;
  }

  /** The org owning an edge gateway (through its VDC or VDC group). */
  edgeOrg(edge: VcdEdgeGateway): VcdOrg | undefined {
    const orgId =
      edge.owner.kind === "vdc"
        ? this.#vdcs.get(edge.owner.id)?.orgId
        : this.#vdcGroups.get(edge.owner.id)?.orgId;
    return orgId === undefined ? undefined : this.#orgs.get(orgId);
  }

  /** Add an organization. */
  addOrg(org: VcdOrg): VcdOrg {
    this.#unique(this.#orgs, org.id, "org");
    this.#orgs.set(org.id, org);
    return org;
  }

  /** Add a VDC to an existing org. */
  addVdc(vdc: VcdVdc): VcdVdc {
    this.#unique(this.#vdcs, vdc.id, "vdc");
    this.#exists(this.#orgs, vdc.orgId, "org");
    this.#vdcs.set(vdc.id, vdc);
    return vdc;
  }

  /** Add a VDC group over existing VDCs of one org. */
  addVdcGroup(group: VcdVdcGroup): VcdVdcGroup {
    this.#unique(this.#vdcGroups, group.id, "vdcGroup");
    this.#exists(this.#orgs, group.orgId, "org");
    for (const vdcId of group.vdcIds) this.#exists(this.#vdcs, vdcId, "vdc");
    this.#vdcGroups.set(group.id, group);
    return group;
  }

  /** Add a vApp (or template) to an existing VDC. */
  addVapp(vapp: VcdVapp): VcdVapp {
    this.#unique(this.#vapps, vapp.id, "vApp");
    this.#exists(this.#vdcs, vapp.vdcId, "vdc");
    this.#vapps.set(vapp.id, vapp);
    return vapp;
  }

  /** Add a VM to an existing vApp. */
  addVm(vm: VcdVm): VcdVm {
    this.#unique(this.#vms, vm.id, "vm");
    this.#exists(this.#vapps, vm.vappId, "vApp");
    this.#vms.set(vm.id, vm);
    return vm;
  }

  /** Remove a VM; true if it existed. */
  removeVm(id: string): boolean {
    return this.#vms.delete(id);
  }

  /** Change a VM's fields in place (name, status, NICs, disks…). */
  updateVm(id: string, patch: Partial<Omit<VcdVm, "id">>): VcdVm {
    const vm = this.#exists(this.#vms, id, "vm");
    Object.assign(vm, patch);
    return vm;
  }

  /** Rename a VM. */
  renameVm(id: string, name: string): VcdVm {
    return this.updateVm(id, { name });
  }

  /** Power a VM on, off or suspend it. */
  setPowerState(id: string, status: VcdVmStatus): VcdVm {
    return this.updateVm(id, { status });
  }

  /** Replace a VM's network connections. */
  setNics(id: string, nics: VcdNic[], primaryNicIndex = nics[0]?.index ?? 0): VcdVm {
    return this.updateVm(id, { nics, primaryNicIndex });
  }

  /** Add an edge gateway owned by an existing VDC or VDC group. */
  addEdgeGateway(edge: VcdEdgeGateway): VcdEdgeGateway {
    this.#unique(this.#edges, edge.id, "edgeGateway");
    if (edge.owner.kind === "vdc") this.#exists(this.#vdcs, edge.owner.id, "vdc");
    else this.#exists(this.#vdcGroups, edge.owner.id, "vdcGroup");
    this.#edges.set(edge.id, edge);
    return edge;
  }

  /** Remove an edge gateway; true if it existed. */
  removeEdgeGateway(id: string): boolean {
    return this.#edges.delete(id);
  }

  #unique<T>(map: Map<string, T>, id: string, kind: string): void {
    if (map.has(id)) throw new Error(`duplicate ${kind} id ${id}`);
  }

  #exists<T>(map: Map<string, T>, id: string, kind: string): T {
    const found = map.get(id);
    if (found === undefined) throw new Error(`unknown ${kind} ${id}`);
    return found;
  }
}
