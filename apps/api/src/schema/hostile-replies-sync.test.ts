// Hostile hypervisor answers at the sync level (issue 8), for each source: stand-in → client →
// adapter → sync engine → database, with the app's own 32 MiB response cap. A gigantic body, an
// HTML page with 200 or a list of the wrong shape fails at most the list it belongs to: none of its
// guests is removed, and a change in another list (or the edge gateways) still applies.
import type { ConnectionKind } from "@hyperlens/shared";
import {
  createProxmoxStandin,
  createVcdStandin,
  createVcenterStandin,
  generateCluster,
  generateDirector,
  generateVcenter,
  type HostileReply,
  hostileReplies,
} from "@hyperlens/standins/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { syncConnection } from "../syncs/coordinator.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

// Past the app's default cap (32 MiB), streamed: the client must stop reading at the cap.
const GIGANTIC = 40 * 1024 * 1024;
const pick = (format: "json" | "xml") =>
  hostileReplies(format, GIGANTIC).filter((r) =>
    ["a gigantic body", "an HTML login page with 200", "fields of the wrong type"].includes(r.name),
  );

let app: TestApp;
const closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  app = await startTestApp();
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await app?.close();
});

const sync = (id: string) => syncConnection(app.services, id, { trigger: "MANUAL" }).done;

async function rows(connectionId: string) {
  const all = await app.services.prisma.virtualMachine.findMany({ where: { connectionId } });
  return new Map(all.map((r) => [r.externalId, r]));
}

async function save(kind: ConnectionKind, standin: { url: string; caPem: string }) {
  const saved = await saveStandinConnection(app.services, kind, standin, kind);
  const first = await sync(saved.id);
  expect(first.outcome).toBe("SUCCESS");
  return saved.id;
}

/**
 * Installs `reply` and syncs. The list it hits either failed — its guests kept as "list failed" —
 * or its answer was still usable (a wrong type in an optional field) and came back whole; either
 * way none of its guests is removed.
 */
async function expectKept(
  connectionId: string,
  reply: HostileReply,
  install: (reply: HostileReply) => { remove(): void },
  isHitList: (listKey: string) => boolean,
) {
  const before = await rows(connectionId);
  const handle = install(reply);
  const result = await sync(connectionId);
  handle.remove();
  const after = await rows(connectionId);
  const kept = result.outcome === "SUCCESS" ? "CONFIRMED" : "LIST_FAILED";
  for (const [id, row] of before) {
    if (row.removedAt !== null || !isHitList(row.listKey)) continue;
    expect(after.get(id)?.removedAt, `${reply.name}: ${id}`).toBeNull();
    expect(after.get(id)?.confirmation, `${reply.name}: ${id}`).toBe(kept);
  }
  return { result, after };
}

describe("a hostile answer fails only its own list", () => {
  it("Proxmox: a node's qemu list", async () => {
    const standin = await createProxmoxStandin({
      version: "9.1",
      cluster: generateCluster({ nodes: 2, guests: 16, seed: 4 }),
    });
    closers.push(() => standin.close());
    const id = await save("PROXMOX", standin);
    const [node, other] = standin.cluster.nodes.map((n) => n.name);
    for (const reply of pick("json")) {
      // A guest gone from another list: that list came back, so its removal still applies.
      const gone = standin.cluster.guests.find((g) => g.node === other && g.type === "qemu");
      if (gone) standin.cluster.removeGuest(gone.vmid);
      const { result, after } = await expectKept(
        id,
        reply,
        (r) => r.install(standin.faults, `/nodes/${node}/qemu`),
        (list) => list === `${node}/qemu`,
      );
      expect(result.counts.removed, reply.name).toBe(gone ? 1 : 0);
      if (gone) expect(after.get(String(gone.vmid))?.removedAt, reply.name).not.toBeNull();
    }
  });

  it("Cloud Director: the VM query, while edge gateways still apply", async () => {
    const model = generateDirector({ orgs: 1, vdcsPerOrg: 2, vms: 12, edgeGateways: 9, seed: 5 });
    const standin = await createVcdStandin({ model, maxPageSize: 5 });
    closers.push(() => standin.close());
    const id = await save("VCD", standin);
    for (const reply of pick("xml")) {
      const edge = model.edgeGateways[0];
      if (edge) model.removeEdgeGateway(edge.id);
      await expectKept(
        id,
        reply,
        (r) => r.install(standin.faults, "/api/query", { nth: 2 }),
        () => true,
      );
      const edges = await app.services.prisma.edgeGateway.findMany({ where: { connectionId: id } });
      const removedEdge = edges.find((e) => e.externalId.endsWith(edge?.id ?? "-"));
      expect(removedEdge?.removedAt ?? null, reply.name).not.toBeNull();
      expect(standin.openSessions).toBe(0);
    }
  });

  it("vCenter: the VM list", async () => {
    const model = generateVcenter({
      datacenters: 1,
      clustersPerDc: 1,
      hostsPerCluster: 2,
      vms: 10,
      seed: 6,
    });
    const standin = await createVcenterStandin({ model });
    closers.push(() => standin.close());
    const id = await save("VCENTER", standin);
    for (const reply of pick("json")) {
      const { result } = await expectKept(
        id,
        reply,
        (r) => r.install(standin.faults, "/api/vcenter/vm"),
        () => true,
      );
      expect(result.counts.removed, reply.name).toBe(0);
      expect(standin.openSessions).toBe(0);
    }
  });
});
