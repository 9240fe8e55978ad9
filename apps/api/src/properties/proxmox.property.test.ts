// Proxmox VE under random inventories and random failures (docs/behaviour.md §3): removal only from lists that
// came back, the per-sync guard, no half-written guest, idempotent re-syncs. Most runs drive the
// planner with the list outcomes the adapter produces; a few go stand-in → adapter → runSync.
import { createProxmoxClient, readProxmoxInventory } from "@hyperlens/proxmox";
import type { ListRead } from "@hyperlens/shared";
import { createProxmoxStandin, DEFAULT_TOKEN, generateCluster } from "@hyperlens/standins/testing";
import type { StoredVmState } from "@hyperlens/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkEndToEnd,
  checkProperty,
  expectConverges,
  neutralVm,
  PURE_RUNS,
  reconcileInMemory,
  useFileDatabase,
  World,
  worldChanges,
} from "../testing/property-harness.ts";
import { registerSecret } from "../testing/secret-registry.ts";

const TYPES = ["qemu", "lxc"] as const;

/** What the adapter makes of one (node, type) list: every failure kind becomes a failed list. */
const listOutcome = fc.oneof(
  { weight: 6, arbitrary: fc.constant("ok" as const) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "status-500",
      "status-595",
      "status-401",
      "truncated",
      "html",
      "timeout",
      "guest-config-failed",
    ),
  },
  // A list that answers short (valid JSON): only the guard stands between it and a wipe.
  { weight: 1, arbitrary: fc.constant("short" as const) },
);

const step = (nodes: number) =>
  fc.record({
    changes: worldChanges,
    offline: fc.array(fc.boolean(), { minLength: nodes, maxLength: nodes }),
    outcomes: fc.array(listOutcome, { minLength: nodes * 2, maxLength: nodes * 2 }),
    wholeSyncFails: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  });

const scenario = fc.integer({ min: 1, max: 4 }).chain((nodes) =>
  fc.record({
    nodes: fc.constant(nodes),
    initial: fc.array(fc.nat({ max: nodes * 2 - 1 }), { maxLength: 30 }),
    steps: fc.array(step(nodes), { minLength: 1, maxLength: 4 }),
  }),
);

describe("property: Proxmox sync under random failures (pure)", () => {
  it("removes only what a returned list no longer has, per-sync guard, offline is not gone", () => {
    checkProperty(
      fc.property(scenario, ({ nodes, initial, steps }) => {
        const keys = Array.from({ length: nodes }, (_, n) =>
          TYPES.map((t) => `pve${n}/${t}`),
        ).flat();
        const world = new World(keys, initial);
        const store = new Map<string, StoredVmState>();
        // First sync: everything comes back.
        reconcileInMemory(
          store,
          snapshotLists(world, keys, null),
          new Map(world.guests),
          new Set(keys),
        );
        for (const s of steps) {
          world.apply(s.changes);
          // TRAP: docs/behaviour.md §3 — /nodes failing fails the whole sync: nothing is planned or written.
          if (s.wholeSyncFails) continue;
          const honest = new Set(keys.filter((_, i) => s.outcomes[i] !== "short"));
          const lists = snapshotLists(world, keys, s);
          const beforeStore = new Map(store);
          const { removed } = reconcileInMemory(store, lists, new Map(world.guests), honest);
          for (const id of removed) expect(beforeStore.get(id)?.isRemoved).toBe(false);
        }
        expectConverges(store, world, snapshotLists(world, keys, null));
      }),
      PURE_RUNS,
    );
  });
});

function snapshotLists(
  world: World,
  keys: string[],
  s: { offline: boolean[]; outcomes: string[] } | null,
): ListRead[] {
  return keys.map((key, i): ListRead => {
    const node = Math.floor(i / 2);
    if (s?.offline[node])
      return { key, status: "node_offline", reason: `node pve${node} is offline` };
    const outcome = s?.outcomes[i] ?? "ok";
    const ids = world.in(key);
    if (outcome === "ok")
      return { key, status: "ok", vms: ids.map((id) => neutralVm(id, `pve${node}`)) };
    if (outcome === "short") {
      return {
        key,
        status: "ok",
        vms: ids.slice(0, Math.floor(ids.length / 3)).map((id) => neutralVm(id)),
      };
    }
    return { key, status: "failed", reason: outcome };
  });
}

// ---------------------------------------------------------------- end to end ----------------

const db = useFileDatabase();

const FAULTS = [
  "none",
  "500",
  "595",
  "truncate",
  "html",
  "reset",
  "config-500",
  "nodes-500",
] as const;

const e2eScenario = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  nodes: fc.integer({ min: 1, max: 3 }),
  guests: fc.integer({ min: 0, max: 14 }),
  removeEvery: fc.integer({ min: 2, max: 9 }),
  move: fc.boolean(),
  offlineNode: fc.option(fc.nat({ max: 2 }), { nil: undefined }),
  faults: fc.array(fc.record({ kind: fc.constantFrom(...FAULTS), node: fc.nat({ max: 2 }) }), {
    maxLength: 3,
  }),
});

describe("property: Proxmox stand-in → adapter → runSync", () => {
  it("keeps the safety rules on a real database and converges once the faults clear", async () => {
    registerSecret(DEFAULT_TOKEN.secret);
    await checkEndToEnd(db.prisma, e2eScenario, {
      source: "PROXMOX",
      start: (sc) =>
        createProxmoxStandin({
          cluster: generateCluster({
            nodes: sc.nodes,
            guests: sc.guests,
            seed: sc.seed,
            clusterName: "lab",
          }),
          version: "9.1",
        }),
      connect: (_, http) =>
        createProxmoxClient({
          http,
          auth: { kind: "token", tokenId: DEFAULT_TOKEN.id, secret: DEFAULT_TOKEN.secret },
        }),
      steps: (sc, standin, client) => {
        const offline =
          sc.offlineNode === undefined ? undefined : standin.cluster.nodes[sc.offlineNode];
        return {
          read: () => readProxmoxInventory(client, { parallelGuests: 4 }),
          change: () => {
            // Remove some, move one, take a node offline.
            standin.cluster.guests.forEach((g, i) => {
              if (i % sc.removeEvery === 0) standin.cluster.removeGuest(g.vmid);
            });
            const mover = standin.cluster.guests[0];
            if (sc.move && mover && sc.nodes > 1) {
              const target = standin.cluster.nodes.find((n) => n.name !== mover.node);
              if (target) standin.cluster.moveGuest(mover.vmid, target.name);
            }
            if (offline) standin.cluster.setNodeOnline(offline.name, false);
            for (const fault of sc.faults)
              installFault(standin, fault.kind, standin.cluster.nodes[fault.node]?.name);
          },
          // A guest still on the node it was known on is never removed.
          isStillThere: (id, listKey) => {
            const live = standin.cluster.guest(Number(id));
            return live !== undefined && listKey === `${live.node}/${live.type}`;
          },
          clearFaults: () => {
            standin.faults.clear();
            if (offline) standin.cluster.setNodeOnline(offline.name, true);
          },
          expected: () => standin.cluster.guests.map((g) => String(g.vmid)),
        };
      },
    });
  }, 300_000);
});

function installFault(
  standin: Awaited<ReturnType<typeof createProxmoxStandin>>,
  kind: (typeof FAULTS)[number],
  node: string | undefined,
) {
  if (!node || kind === "none") return;
  const list = `/nodes/${node}/qemu`;
  if (kind === "500") standin.faults.fail(list, 500);
  else if (kind === "595")
    standin.faults.fail(`/nodes/${node}/lxc`, 595, { reason: "No route to host" });
  else if (kind === "truncate") standin.faults.truncate(list);
  else if (kind === "html") standin.faults.html(`/nodes/${node}/lxc`, { status: 502 });
  else if (kind === "reset") standin.faults.reset(list);
  else if (kind === "config-500") standin.faults.fail(`/nodes/${node}/qemu/*/config`, 500);
  else standin.faults.fail("/nodes", 500);
}
