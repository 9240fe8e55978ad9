// What a database holds, as plain comparable data: every guest row with its NICs, IPs and disks,
// nodes, edge gateways, sync runs and leases. Crash tests read it in the killed process's
// successor and compare it with a reference database that was never interrupted.
import type { PrismaClient } from "@hyperlens/db";

/** One guest row and its child rows, without ids and timestamps. */
export interface GuestState {
  externalId: string;
  listKey: string;
  name: string;
  fingerprint: string;
  confirmation: string;
  isRemoved: boolean;
  nics: string[];
  disks: string[];
  ips: string[];
}

/** The inventory of one connection, its runs (oldest first) and the health its page shows. */
export interface ConnectionState {
  guests: GuestState[];
  nodes: string[];
  edgeGateways: string[];
  runs: { id: string; outcome: string; errorClass: string | null; counts: unknown }[];
  health: {
    lastSyncOutcome: string | null;
    lastSyncMessage: string | null;
    consecutiveFailures: number;
    lastErrorClass: string | null;
  };
}

/** Every connection's inventory by connection name, and the leases held. */
export interface DatabaseState {
  connections: Record<string, ConnectionState>;
  leases: { holder: string; isLive: boolean }[];
}

const present = (rows: { externalId: string; removedAt: Date | null }[]) =>
  rows
    .filter((row) => row.removedAt === null)
    .map((row) => row.externalId)
    .sort();

/** Reads the whole inventory of every connection. */
export async function readDatabaseState(prisma: PrismaClient): Promise<DatabaseState> {
  const connections = await prisma.connection.findMany({ orderBy: { name: "asc" } });
  const state: DatabaseState = { connections: {}, leases: [] };
  for (const connection of connections) {
    const where = { connectionId: connection.id };
    const guests = await prisma.virtualMachine.findMany({
      where,
      include: { nics: true, disks: true, ips: true },
      orderBy: { externalId: "asc" },
    });
    const select = { externalId: true, removedAt: true };
    state.connections[connection.name] = {
      guests: guests.map((row) => ({
        externalId: row.externalId,
        listKey: row.listKey,
        name: row.name,
        fingerprint: row.fingerprint,
        confirmation: row.confirmation,
        isRemoved: row.removedAt !== null,
        nics: row.nics.map((n) => `${n.key}=${n.mac ?? ""}@${n.network ?? ""}`).sort(),
        disks: row.disks.map((d) => `${d.key}=${d.capacityBytes ?? ""}`).sort(),
        ips: row.ips
          .map((i) => `${i.address}/${i.origin}/${i.nicKey ?? ""}/${i.isAccepted}`)
          .sort(),
      })),
      nodes: present(await prisma.hypervisorNode.findMany({ where, select })),
      edgeGateways: present(await prisma.edgeGateway.findMany({ where, select })),
      runs: await prisma.syncRun.findMany({
        where,
        orderBy: { startedAt: "asc" },
        select: { id: true, outcome: true, errorClass: true, counts: true },
      }),
      health: {
        lastSyncOutcome: connection.lastSyncOutcome,
        lastSyncMessage: connection.lastSyncMessage,
        consecutiveFailures: connection.consecutiveFailures,
        lastErrorClass: connection.lastErrorClass,
      },
    };
  }
  const now = Date.now();
  state.leases = (await prisma.syncLease.findMany()).map((lease) => ({
    holder: lease.holder,
    isLive: lease.expiresAt.getTime() >= now,
  }));
  return state;
}
