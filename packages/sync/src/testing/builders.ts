// Builders for the engine's tests and bench: neutral guests, snapshots and a connection row.
import type { PrismaClient } from "@hyperlens/db";
import type {
  ListRead,
  NeutralIp,
  NeutralNic,
  NeutralVm,
  ReportedAddress,
  SourceSnapshot,
} from "@hyperlens/shared";
import { type RunSyncOptions, runSync } from "../run-sync.ts";

/**
 * The raw report a source would have sent for these addresses: configuration-declared ones on
 * their NIC, the others reported by the guest on the interface of their NIC's MAC (an address on
 * no NIC with no MAC at all), so the shipped rules judge them as `ips` says.
 */
export function reportOf(
  ips: readonly NeutralIp[],
  nics: readonly NeutralNic[],
): ReportedAddress[] {
  return ips.map((ip): ReportedAddress => {
    const isConfig = ip.origin === "STATIC_CONFIG" || ip.origin === "PLATFORM";
    const mac = nics.find((nic) => nic.key === ip.nicKey)?.mac;
    return {
      address: ip.address,
      origin: ip.origin,
      reportedBy: isConfig ? "config" : "guest",
      ...(ip.prefixLength === undefined ? {} : { prefixLength: ip.prefixLength }),
      ...(ip.interfaceName === undefined ? {} : { interfaceName: ip.interfaceName }),
      ...(isConfig && ip.nicKey !== undefined ? { nicKey: ip.nicKey } : {}),
      ...(!isConfig && mac ? { mac } : {}),
    };
  });
}

/**
 * A guest with its report made from `ips` unless one is given: tests state the addresses they
 * expect, and the sync judges the report into them again.
 */
export function withReport(
  vm: Omit<NeutralVm, "reportedAddresses"> & Partial<NeutralVm>,
): NeutralVm {
  return { ...vm, reportedAddresses: vm.reportedAddresses ?? reportOf(vm.ips ?? [], vm.nics) };
}

/** A running Proxmox-like VM with one NIC, one agent address and one disk. */
export function makeVm(vmid: number | string, overrides: Partial<NeutralVm> = {}): NeutralVm {
  const n = Number(vmid);
  const mac = `bc:24:11:00:${((n >> 8) & 0xff).toString(16).padStart(2, "0")}:${(n & 0xff).toString(16).padStart(2, "0")}`;
  return withReport({
    externalId: String(vmid),
    name: `vm-${vmid}`,
    kind: "VM",
    state: "RUNNING",
    cpuCount: 2,
    memoryBytes: 4 * 1024 ** 3,
    diskTotalBytes: 32 * 1024 ** 3,
    guestOs: "l26",
    isTemplate: false,
    tags: ["prod"],
    location: { nodeName: "pve1", clusterName: "lab" },
    nics: [{ key: "net0", mac, network: "vmbr0", model: "virtio", isConnected: true }],
    ips: [
      {
        address: `10.0.${(n >> 8) & 0xff}.${n & 0xff}`,
        prefixLength: 24,
        origin: "AGENT",
        interfaceName: "eth0",
        nicKey: "net0",
        isAccepted: true,
      },
    ],
    ipsFromGuestAreLive: true,
    disks: [{ key: "scsi0", capacityBytes: 32 * 1024 ** 3, storage: "local-lvm", busType: "scsi" }],
    details: { common: { firmware: "seabios" }, raw: { ostype: "l26" } },
    ...overrides,
  });
}

/** An ok list of guests. */
export const okList = (key: string, vms: NeutralVm[]): ListRead => ({ key, status: "ok", vms });

/** Creates a Proxmox connection row and returns its id. */
export async function createConnection(prisma: PrismaClient, name = "pve"): Promise<string> {
  const row = await prisma.connection.create({
    data: { kind: "PROXMOX", name, baseUrl: "https://pve.example:8006", username: "audit@pve" },
  });
  return row.id;
}

/** Runs a real (or dry) sync of a fixed snapshot. */
export function syncSnapshot(
  prisma: PrismaClient,
  connectionId: string,
  snapshot: SourceSnapshot,
  extra: Partial<RunSyncOptions> = {},
) {
  return runSync({
    prisma,
    connectionId,
    source: "PROXMOX",
    trigger: "MANUAL",
    read: async () => snapshot,
    ...extra,
  });
}

/** A clock that moves one minute per call from `start`, so timestamps tell syncs apart. */
export function minuteClock(start: string): () => () => Date {
  let clockAt = Date.parse(start);
  return () => {
    clockAt += 60_000;
    const at = new Date(clockAt);
    return () => at;
  };
}
