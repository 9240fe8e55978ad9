// Malformed Cloud Director answers (issue 8), against the stand-in: wrong types, missing attributes,
// a proxy's HTML page, truncated, empty, declaration-only and gigantic bodies (XML on /api, JSON on
// /cloudapi), on every GET a read makes. Each is a classified HyperError, never a crash; it fails
// at most what it belongs to (the VM list, or the edge gateway read), and the session is closed.
import * as hostile from "@hyperlens/hyper-http/testing";
import type { SourceSnapshot } from "@hyperlens/shared";
import {
  createVcdStandin,
  DEFAULT_VCD_USERS,
  generateDirector,
  hostileReplies,
  pathsByRoute,
} from "@hyperlens/standins/testing";
import { describe, expect, it } from "vitest";
import { createVcdClient } from "../client.ts";
import { readVcdInventory, VCD_VM_LIST_KEY } from "./read-inventory.ts";

const provider = DEFAULT_VCD_USERS.find((u) => u.role === "provider");

const bed = hostile.testBed({
  connectionId: "vcd-1",
  start: () => {
    const model = generateDirector({ orgs: 1, vdcsPerOrg: 2, vms: 6, edgeGateways: 3, seed: 3 });
    return createVcdStandin({ model, maxPageSize: 4, edgeGatewayMaxPageSize: 2 });
  },
  connect: (http) =>
    createVcdClient({
      http,
      credentials: {
        username: `${provider?.user}@${provider?.org}`,
        password: provider?.password ?? "",
      },
    }),
  read: (client) => readVcdInventory(client, { parallelVms: 4 }),
});

const repliesFor = (path: string) =>
  hostileReplies(path.startsWith("/cloudapi/") ? "json" : "xml", hostile.GIGANTIC);

function vmIds(snapshot: SourceSnapshot): string[] | "failed" {
  const list = snapshot.lists.find((l) => l.key === VCD_VM_LIST_KEY);
  return list?.status === "ok" ? list.vms.map((v) => v.externalId).sort() : "failed";
}

function edgeIds(snapshot: SourceSnapshot): string[] | "incomplete" {
  const edges = snapshot.edgeGateways;
  return edges?.isComplete ? edges.items.map((e) => e.externalId).sort() : "incomplete";
}

describe("a hostile answer to a page of the VM query", () => {
  it.each(repliesFor("/api/query").map((r) => [r.name, r] as const))(
    "%s is a classified error",
    async (name, reply) => {
      const outcome = await hostile.answerWith(bed.standin, reply, "/api/query", () =>
        bed.client.withSession(() => bed.client.vmQueryPage(1)),
      );
      if ("value" in outcome) {
        // Attributes are optional one by one: numbers that are words are read as unknown, not fatal.
        expect(name).toBe("fields of the wrong type");
        expect(outcome.value.total).toBeNull();
        return;
      }
      const page = bed.standin.requests.find((r) => r.path === "/api/query");
      hostile.expectClassified(outcome.error, name, "Cloud Director", page?.sentBytes);
      expect(bed.standin.openSessions).toBe(0);
    },
  );
});

describe("a hostile answer to any GET of a read", () => {
  it("fails at most the list it belongs to, and the session is closed", async () => {
    const vms = vmIds(bed.clean);
    const edges = edgeIds(bed.clean);
    expect([vms, edges]).not.toContain("failed");
    await hostile.sweep({
      standin: bed.standin,
      read: () => readVcdInventory(bed.client, { parallelVms: 4 }),
      pathsOf: pathsByRoute,
      mustCall: [
        "/api/query",
        "/cloudapi/1.0.0/edgeGateways",
        expect.stringMatching(/^\/api\/vApp\/vm-/),
      ],
      replies: repliesFor,
      check: (outcome, where, path) => {
        expect(bed.standin.openSessions, `${where}: a session was left open`).toBe(0);
        if ("error" in outcome) {
          const { error } = outcome;
          expect(error, where).toMatchObject({ name: "HyperError", source: "Cloud Director" });
          expect.fail(`${where}: the whole read failed: ${(error as Error).message}`);
        }
        const ofVmList = path === "/api/query" || path.startsWith("/api/vApp/");
        const ofEdges = path.startsWith("/cloudapi/1.0.0/edgeGateways");
        const gotVms = vmIds(outcome.value);
        const gotEdges = edgeIds(outcome.value);
        // TRAP: docs/behaviour.md §4 — a list that came back is whole; only the list the answer belongs to may fail.
        if (gotVms !== "failed" || !ofVmList) expect(gotVms, `${where}: VMs`).toEqual(vms);
        if (gotEdges !== "incomplete" || !ofEdges)
          expect(gotEdges, `${where}: edge gateways`).toEqual(edges);
      },
    });
  }, 120_000);
});
