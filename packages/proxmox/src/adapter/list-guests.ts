// The light poll's reads of a Proxmox cluster (docs/behaviour.md §8.7): every guest from one call
// to /cluster/resources, and the details of only the guests that changed, read as the full sync
// reads them (their node's list entry, config and agent).
import type { GuestListing, ListedGuest, ReadGuest } from "@hyperlens/shared";
import { mapWithLimit } from "@hyperlens/shared";
import type { ProxmoxClient } from "../client.ts";
import type { ProxmoxClusterGuest } from "../parse/cluster-resources.ts";
import { powerState } from "./map-guest.ts";
import { agentPrivilege } from "./privileges.ts";
import { createGuestReader } from "./read-guest.ts";
import { listKey } from "./read-inventory.ts";

function toListed(guest: ProxmoxClusterGuest): ListedGuest {
  const fallback = `${guest.type === "qemu" ? "VM" : "CT"} ${guest.vmid}`;
  return {
    externalId: String(guest.vmid),
    listKey: listKey(guest.node, guest.type),
    name: guest.name ?? fallback,
    // TRAP: docs/behaviour.md §8.8 — "unknown" is a guest on an offline node: present, not compared.
    ...(guest.status === "unknown" ? {} : { state: powerState(guest.status) }),
  };
}

/** Every guest of the cluster, from one request; rejects when that request fails. */
export async function listProxmoxGuests(client: ProxmoxClient): Promise<GuestListing> {
  return { isComplete: true, guests: (await client.clusterGuests()).map(toListed) };
}

/**
 * Reads the details of the given guests, grouped by their node's list (one list request per
 * node and type that has a changed guest). A guest whose read fails, or that is no longer in its
 * node's list, is left out: it is not written, and not removed either.
 */
export async function readProxmoxGuests(
  client: ProxmoxClient,
  guests: readonly ListedGuest[],
  signal?: AbortSignal,
): Promise<ReadGuest[]> {
  if (guests.length === 0) return [];
  const [clusterName, version] = await Promise.all([
    client.clusterStatus().then(
      (status) => status.clusterName,
      () => null,
    ),
    client.version().catch(() => null),
  ]);
  const wanted = new Map<string, Set<string>>();
  for (const guest of guests) {
    const ids = wanted.get(guest.listKey) ?? new Set<string>();
    ids.add(guest.externalId);
    wanted.set(guest.listKey, ids);
  }
  const read = createGuestReader(client, version);
  const lists = await Promise.all(
    [...wanted].map(async ([key, ids]) => {
      const slash = key.lastIndexOf("/");
      const node = key.slice(0, slash);
      const type = key.slice(slash + 1);
      const summaries = await (type === "qemu"
        ? client.qemuList(node)
        : client.lxcList(node)
      ).catch(() => []);
      const place = { node, clusterName, agentPrivilege: agentPrivilege(version) };
      return summaries
        .filter((summary) => ids.has(String(summary.vmid)))
        .map((summary) => ({ key, place, summary }));
    }),
  );
  const results = await mapWithLimit(lists.flat(), 16, async ({ key, place, summary }) => {
    try {
      return { listKey: key, vm: await read(place, summary, signal) };
    } catch {
      signal?.throwIfAborted();
      return undefined;
    }
  });
  return results.filter((result): result is ReadGuest => result !== undefined);
}
