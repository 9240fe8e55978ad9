// Reads a whole Proxmox VE cluster into a neutral snapshot (docs/behaviour.md §3, steps 1–4). Lists that fail
// are reported as failed, never as empty; offline nodes as offline. Guests are read node by node
// in turn, as many at once as the client's per-node and per-connection limits allow
// (docs/behaviour.md §3.7, §3.8), so the pipeline stays full and no node waits behind another.

import type {
  ListRead,
  NeutralNode,
  NeutralVm,
  ServerText,
  SourceSnapshot,
} from "@hyperlens/shared";
import { englishText, errorMessage, mapFairly, serverText } from "@hyperlens/shared";
import type { ProxmoxClient } from "../client.ts";
import type { ProxmoxGuestSummary } from "../parse/guest-list.ts";
import type { ProxmoxNode } from "../parse/nodes.ts";
import type { GuestPlace } from "./map-guest.ts";
import { agentPrivilege } from "./privileges.ts";
import { createGuestReader } from "./read-guest.ts";

/** Progress of a read, for live sync progress. */
export type ReadProgress =
  | {
      type: "list";
      key: string;
      status: "ok" | "skipped";
      count?: number;
      reason?: string;
      reasonText?: ServerText;
    }
  | { type: "guests"; done: number; total: number };

export interface ReadOptions {
  onProgress?: (event: ReadProgress) => void;
  /** Guests read at once (default: the client's per-connection limit); capped by it. */
  parallelGuests?: number;
  signal?: AbortSignal;
}

const GUEST_TYPES = ["qemu", "lxc"] as const;

/** The list key of a node's guests of one type: "pve1/qemu". */
export function listKey(node: string, type: "qemu" | "lxc"): string {
  return `${node}/${type}`;
}

function toNeutralNode(node: ProxmoxNode, clusterName: string | null): NeutralNode {
  return {
    externalId: node.node,
    name: node.node,
    isOnline: node.status === "online",
    ...(clusterName ? { clusterName } : {}),
    ...(node.maxCpu === null ? {} : { cpuCount: node.maxCpu }),
    ...(node.maxMemBytes === null ? {} : { memoryBytes: node.maxMemBytes }),
    details: { status: node.status, sslFingerprint: node.sslFingerprint },
  };
}

/** Reads every guest of every online node. Throws only when the node list itself fails. */
export async function readProxmoxInventory(
  client: ProxmoxClient,
  options: ReadOptions = {},
): Promise<SourceSnapshot> {
  const emit = options.onProgress ?? (() => {});
  // TRAP: docs/behaviour.md §3 — /nodes is read with the error-surfacing call: with a token it is the first
  // request, so an unreachable server must be reported as unreachable, not as "no nodes".
  const nodes = await client.nodes();
  const [clusterName, version] = await Promise.all([
    client.clusterStatus().then(
      (status) => status.clusterName,
      () => null,
    ),
    client.version().catch(() => null),
  ]);

  type Pending = {
    key: string;
    place: GuestPlace;
    type: "qemu" | "lxc";
    guests: ProxmoxGuestSummary[];
  };
  const lists: ListRead[] = [];
  const pending: Pending[] = [];
  await Promise.all(
    nodes.flatMap((node) =>
      GUEST_TYPES.map(async (type) => {
        const key = listKey(node.node, type);
        if (node.status !== "online") {
          // TRAP: docs/behaviour.md §10 — guests on an offline node are kept, not "gone".
          const reasonText = serverText("nodeNotOnline", { node: node.node, status: node.status });
          const reason = englishText(reasonText);
          lists.push({ key, status: "node_offline", reason, reasonText });
          emit({ type: "list", key, status: "skipped", reason, reasonText });
          return;
        }
        try {
          const guests =
            type === "qemu" ? await client.qemuList(node.node) : await client.lxcList(node.node);
          pending.push({
            key,
            type,
            guests,
            place: { node: node.node, clusterName, agentPrivilege: agentPrivilege(version) },
          });
        } catch (error) {
          // TRAP: docs/behaviour.md §3 — a list that failed did not "come back": its guests must not be removed.
          lists.push({ key, status: "failed", reason: errorMessage(error) });
          emit({ type: "list", key, status: "skipped", reason: errorMessage(error) });
        }
      }),
    ),
  );

  const total = pending.reduce((n, list) => n + list.guests.length, 0);
  let done = 0;
  const read = createGuestReader(client, version);
  const readGuest = async (list: Pending, guest: ProxmoxGuestSummary): Promise<NeutralVm> => {
    const vm = await read(list.place, guest, options.signal);
    done++;
    if (done % 100 === 0 || done === total) emit({ type: "guests", done, total });
    return vm;
  };

  // One pool over every guest of every list keeps the pipeline full across list boundaries; a
  // guest's reads go one after another, so guests in flight per node are requests per node.
  const work = pending.flatMap((list) => list.guests.map((guest) => ({ list, guest })));
  const failures = new Map<string, string>();
  const { perConnection, perNode } = client.limits;
  const results = await mapFairly(
    work,
    {
      // TRAP: docs/behaviour.md §3.8 — one pool in list order kept every slot on the biggest
      // node, waiting for its 2 workers, while the other nodes' workers stood idle.
      groupOf: ({ list }) => list.place.node,
      perGroup: perNode,
      limit: Math.min(options.parallelGuests ?? perConnection, perConnection),
    },
    async ({ list, guest }) => {
      if (failures.has(list.key)) return undefined;
      try {
        return await readGuest(list, guest);
      } catch (error) {
        // A guest whose config could not be read leaves its whole list unconfirmed: storing it
        // without NICs and disks would erase what we knew.
        if (!failures.has(list.key))
          failures.set(list.key, `guest ${guest.vmid}: ${errorMessage(error)}`);
        return undefined;
      }
    },
  );
  const vmsByList = new Map<string, NeutralVm[]>(pending.map((list) => [list.key, []]));
  work.forEach(({ list }, index) => {
    const vm = results[index];
    if (vm) vmsByList.get(list.key)?.push(vm);
  });
  for (const list of pending) {
    const reason = failures.get(list.key);
    if (reason) {
      lists.push({ key: list.key, status: "failed", reason });
      emit({ type: "list", key: list.key, status: "skipped", reason });
    } else {
      const vms = vmsByList.get(list.key) ?? [];
      lists.push({ key: list.key, status: "ok", vms });
      emit({ type: "list", key: list.key, status: "ok", count: vms.length });
    }
  }
  return { nodes: nodes.map((n) => toNeutralNode(n, clusterName)), lists };
}
