// Malformed Proxmox answers (issue 8), against the stand-in: fields of the wrong type, missing
// fields, a proxy's HTML page, truncated, empty, null and gigantic bodies, on every call a read
// makes. Each is a classified HyperError, never a crash, and fails at most the list it belongs to.
import * as hostile from "@hyperlens/hyper-http/testing";
import type { SourceSnapshot } from "@hyperlens/shared";
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  hostileReplies,
  pathsByRoute,
} from "@hyperlens/standins/testing";
import { describe, expect, it } from "vitest";
import { createProxmoxClient } from "../client.ts";
import { labCluster } from "../testing/lab-cluster.ts";
import { readProxmoxInventory } from "./read-inventory.ts";

const REPLIES = hostileReplies("json", hostile.GIGANTIC);

const bed = hostile.testBed({
  connectionId: "c1",
  start: () => createProxmoxStandin({ version: "9.1", cluster: labCluster() }),
  connect: (http) =>
    createProxmoxClient({
      http,
      auth: { kind: "token", tokenId: DEFAULT_TOKEN.id, secret: DEFAULT_TOKEN.secret },
    }),
  read: (client) => readProxmoxInventory(client),
});

/** The VM ids of every list that came back, by list key. */
function okLists(snapshot: SourceSnapshot): Map<string, string[]> {
  return new Map(
    snapshot.lists.flatMap((l) =>
      l.status === "ok" ? [[l.key, l.vms.map((v) => v.externalId).sort()] as const] : [],
    ),
  );
}

/** The list a call belongs to: "pve1/qemu" for /nodes/pve1/qemu and its guests' calls. */
function listOf(path: string): string | undefined {
  const match = /^\/api2\/json\/nodes\/([^/]+)\/(qemu|lxc)(\/|$)/.exec(path);
  return match ? `${match[1]}/${match[2]}` : undefined;
}

describe("a hostile answer to a node's guest list", () => {
  it.each(REPLIES.map((r) => [r.name, r] as const))(
    "%s is a classified error",
    async (name, reply) => {
      const outcome = await hostile.answerWith(bed.standin, reply, "/nodes/pve1/qemu", () =>
        bed.client.qemuList("pve1"),
      );
      if (!("error" in outcome)) expect.fail("expected the call to fail");
      hostile.expectClassified(outcome.error, name, "Proxmox", bed.standin.requests[0]?.sentBytes);
    },
  );
});

describe("a hostile answer to any call of a read", () => {
  it("fails at most the list the call belongs to; every other list comes back whole", async () => {
    const expected = okLists(bed.clean);
    await hostile.sweep({
      standin: bed.standin,
      read: () => readProxmoxInventory(bed.client),
      pathsOf: pathsByRoute,
      mustCall: ["/api2/json/nodes", "/api2/json/nodes/pve1/qemu", "/api2/json/version"],
      replies: () => REPLIES,
      check: (outcome, where, path) => {
        if ("error" in outcome) {
          // TRAP: docs/behaviour.md §3 — only the node list may fail the whole read, and only as a classified error.
          expect(path, where).toBe("/api2/json/nodes");
          expect(outcome.error, where).toMatchObject({ name: "HyperError", source: "Proxmox" });
          return;
        }
        const snapshot = outcome.value;
        const own = listOf(path);
        const isNodeList = path === "/api2/json/nodes";
        const got = okLists(snapshot);
        for (const list of snapshot.lists) {
          if (list.key === own && list.status === "failed") {
            expect(list.reason, where).toMatch(/Proxmox server/);
          } else if (list.status === "ok") {
            // A list that came back (even its own, when the answer was still usable) is whole: a
            // short list would let the sync remove the guests it lost.
            expect(got.get(list.key), `${where}: list ${list.key}`).toEqual(expected.get(list.key));
          } else {
            // Nodes the node list no longer shows as online keep their guests (offline is not gone).
            expect([isNodeList, list.status], `${where}: list ${list.key}`).toEqual([
              true,
              "node_offline",
            ]);
          }
        }
        if (!isNodeList) {
          for (const key of expected.keys())
            if (key !== own) expect(got.has(key), `${where}: list ${key} is missing`).toBe(true);
        }
      },
    });
  }, 120_000);
});
