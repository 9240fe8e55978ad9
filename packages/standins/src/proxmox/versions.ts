/** The Proxmox VE releases the stand-in imitates. */
export type PveVersion = "7.4" | "8.4" | "9.1";

/** Behaviour that differs between Proxmox VE releases (sources in fixtures/README.md §1). */
export interface VersionTraits {
  release: PveVersion;
  /** `version` field of GET /version. */
  version: string;
  /** 8 hex digits before 8.0, 16 from 8.0. */
  repoid: string;
  /** `pveversion` of GET /nodes/{node}/status. */
  pveversion: string;
  kversion: string;
  /** LXC `vmid` is a string in /nodes/{node}/lxc before pve-container 5.0.10 (PVE 8.2). */
  lxcVmidIsString: boolean;
  /** GET /nodes/{node}/lxc/{vmid}/interfaces exists from PVE 8.1. */
  hasLxcInterfaces: boolean;
  /** JSON error bodies carry `"message"` from libpve-http-server-perl 5.2.0 (2025). */
  errorMessageInBody: boolean;
  /** Privileges the agent endpoints check; PVEAuditor holds them only from PVE 9. */
  agentPrivileges: string;
  auditorMayReadAgent: boolean;
  /** qemu `memory` became a property string (served as a JSON string) in qemu-server 8. */
  qemuMemoryIsString: boolean;
  /** PVE 9 lists carry pressure stall figures and `memhost` for running guests. */
  listsHavePressure: boolean;
}

const TRAITS: Record<PveVersion, VersionTraits> = {
  "7.4": {
    release: "7.4",
    version: "7.4-16",
    repoid: "0f39f621",
    pveversion: "pve-manager/7.4-16/0f39f621",
    kversion: "Linux 5.15.108-1-pve #1 SMP PVE 5.15.108-2 (2023-07-20T10:06Z)",
    lxcVmidIsString: true,
    hasLxcInterfaces: false,
    errorMessageInBody: false,
    agentPrivileges: "VM.Monitor",
    auditorMayReadAgent: false,
    qemuMemoryIsString: false,
    listsHavePressure: false,
  },
  "8.4": {
    release: "8.4",
    version: "8.4.1",
    repoid: "2a5fa54a8503f96d",
    pveversion: "pve-manager/8.4.1/2a5fa54a8503f96d",
    kversion: "Linux 6.8.12-9-pve #1 SMP PREEMPT_DYNAMIC PMX 6.8.12-9 (2025-03-16T19:18Z)",
    lxcVmidIsString: false,
    hasLxcInterfaces: true,
    // The fixtures mark the message field as ">= 8.3" and 8.4 shipped after the 2025 change.
    errorMessageInBody: true,
    agentPrivileges: "VM.Monitor",
    auditorMayReadAgent: false,
    qemuMemoryIsString: true,
    listsHavePressure: false,
  },
  "9.1": {
    release: "9.1",
    version: "9.1.2",
    repoid: "9a1b2c3d4e5f6a7b",
    pveversion: "pve-manager/9.1.2/9a1b2c3d4e5f6a7b",
    kversion: "Linux 6.17.2-1-pve #1 SMP PREEMPT_DYNAMIC PMX 6.17.2-1 (2025-10-21T11:55Z)",
    lxcVmidIsString: false,
    hasLxcInterfaces: true,
    errorMessageInBody: true,
    agentPrivileges: "VM.GuestAgent.Audit|VM.GuestAgent.Unrestricted",
    auditorMayReadAgent: true,
    qemuMemoryIsString: true,
    listsHavePressure: true,
  },
};

/** The behaviour switches of one release. */
export function versionTraits(version: PveVersion): VersionTraits {
  return TRAITS[version];
}
