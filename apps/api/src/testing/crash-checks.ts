// The rules a database must keep across a SIGKILL mid-sync (issue 8), checked against a reference
// database that synced the same two inventories without interruption.
import { expect } from "vitest";
import type { ConnectionState, DatabaseState, GuestState } from "./inventory-state.ts";

const byId = (state: ConnectionState | undefined) =>
  new Map((state?.guests ?? []).map((guest) => [guest.externalId, guest]));

/** A guest row and the child rows written with it, as one value. */
const contentOf = (guest: GuestState) =>
  JSON.stringify([
    guest.name,
    guest.listKey,
    guest.fingerprint,
    guest.nics,
    guest.disks,
    guest.ips,
  ]);

/**
 * Right after the restart, before any new sync: every live guest row is whole and is one of the
 * two versions (before or after the change) — never a row of one with the NICs, IPs or disks of
 * the other or none; no guest that still exists was removed; nothing unknown appeared.
 */
export function expectConsistentAfterKill(
  killed: DatabaseState,
  before: DatabaseState,
  after: DatabaseState,
): void {
  for (const [name, state] of Object.entries(after.connections)) {
    const old = byId(before.connections[name]);
    const next = byId(after.connections[name]);
    const now = byId(killed.connections[name]);
    for (const [id, row] of now) {
      const versions = [old.get(id), next.get(id)].flatMap((v) => (v ? [v] : []));
      expect(versions.length, `${name}: guest ${id} is in neither inventory`).toBeGreaterThan(0);
      if (row.isRemoved) {
        expect(
          old.get(id)?.isRemoved || next.get(id)?.isRemoved,
          `${name}: guest ${id} was removed but is still on the hypervisor`,
        ).toBe(true);
        continue;
      }
      // TRAP: issue 8 — a guest is written with its NICs, IPs and disks in one transaction.
      expect(
        versions.map(contentOf),
        `${name}: guest ${id} is half-written (its row and child rows are of no one version)`,
      ).toContain(contentOf(row));
    }
    for (const guest of state.guests) {
      const wasThere = old.get(guest.externalId);
      if (guest.isRemoved || !wasThere || wasThere.isRemoved) continue;
      expect(
        now.get(guest.externalId)?.isRemoved,
        `${name}: guest ${guest.externalId} still exists on the hypervisor but was removed`,
      ).toBe(false);
    }
  }
}

/** The inventory part of a state (no runs, no leases), for equality with the reference. */
export function inventoryOf(state: DatabaseState) {
  return Object.fromEntries(
    Object.entries(state.connections).map(([name, { guests, nodes, edgeGateways }]) => [
      name,
      { guests, nodes, edgeGateways },
    ]),
  );
}

/** No run is left RUNNING without a live lease (embedded: none at all, and no lease). */
export function expectNoAbandonedRun(state: DatabaseState, isEmbedded: boolean): void {
  const hasLiveLease = state.leases.some((lease) => lease.isLive);
  for (const [name, { runs }] of Object.entries(state.connections)) {
    const running = runs.filter((run) => run.outcome === "RUNNING").length;
    if (isEmbedded || !hasLiveLease)
      expect(running, `${name}: a killed sync is still shown as running`).toBe(0);
    for (const run of runs) {
      if (run.outcome === "FAILED")
        expect(run.errorClass, `${name}: a run failed for another reason`).toBe("interrupted");
    }
  }
  if (isEmbedded) expect(state.leases, "a dead process's lease survived the restart").toEqual([]);
}
