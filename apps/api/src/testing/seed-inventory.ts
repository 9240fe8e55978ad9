// Seeds inventory the way production does: a snapshot through the sync engine.
import type { ConnectionKind, NeutralVm, SourceSnapshot } from "@hyperlens/shared";
import { runSync } from "@hyperlens/sync";
import { withReport } from "@hyperlens/sync/testing";
import type { AppServices } from "../context.ts";
import { saveConnection } from "../services/connections.ts";

/** A neutral VM with sensible defaults. */
export function neutralVm(externalId: string, overrides: Partial<NeutralVm> = {}): NeutralVm {
  return withReport({
    externalId,
    name: `vm-${externalId}`,
    kind: "VM",
    state: "RUNNING",
    isTemplate: false,
    tags: [],
    location: {},
    nics: [
      {
        key: "net0",
        mac: `bc:24:11:00:${externalId.padStart(4, "0").slice(0, 2)}:${externalId.padStart(4, "0").slice(2, 4)}`,
      },
    ],
    ips: [],
    ipsFromGuestAreLive: true,
    disks: [{ key: "scsi0", capacityBytes: 32 * 1024 ** 3 }],
    details: {},
    ...overrides,
  });
}

/** Creates a connection of a kind (pointing nowhere) and syncs the given VMs into it. */
export async function seedConnection(
  services: AppServices,
  kind: ConnectionKind,
  name: string,
  vms: NeutralVm[],
) {
  const username = kind === "PROXMOX" ? "seed@pve" : "seed@org";
  const connection = await saveConnection(
    services.prisma,
    services.secrets,
    kind,
    { name, url: `https://${name}.invalid`, username, secret: "unused" },
    null,
    services.targetPolicy,
  );
  await syncInto(services, connection.id, kind, vms);
  return connection;
}

/** Syncs a snapshot of one list into a connection. */
export async function syncInto(
  services: AppServices,
  connectionId: string,
  kind: ConnectionKind,
  vms: NeutralVm[],
) {
  const snapshot: SourceSnapshot = { lists: [{ key: "vms", status: "ok", vms }] };
  return runSync({
    prisma: services.prisma,
    connectionId,
    source: kind,
    trigger: "MANUAL",
    read: async () => snapshot,
  });
}
