// Malformed Cloud Director answers (issue 8), against the stand-in: wrong types, missing attributes,
// a proxy's HTML page, truncated, empty, declaration-only and gigantic bodies (XML on /api, JSON on
// /cloudapi), on every GET a read makes. Each is a classified HyperError, never a crash; it fails
// at most what it belongs to (the VM list, or the edge gateway read), and the session is closed.
import type { SourceSnapshot } from "@hyperlens/shared";
import {
  createVcdStandin,
  DEFAULT_VCD_USERS,
  generateDirector,
  hostileReplies,
  pathsByRoute,
  type VcdStandin,
} from "@hyperlens/standins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVcdClient, type VcdClient } from "../client.ts";
import { readVcdInventory, VCD_VM_LIST_KEY } from "./read-inventory.ts";

const CAP = 256 * 1024;
const GIGANTIC = 16 * 1024 * 1024;
const provider = DEFAULT_VCD_USERS.find((u) => u.role === "provider");

let standin: VcdStandin;
let client: VcdClient;
let clean: SourceSnapshot;

beforeAll(async () => {
  const model = generateDirector({ orgs: 1, vdcsPerOrg: 2, vms: 6, edgeGateways: 3, seed: 3 });
  standin = await createVcdStandin({ model, maxPageSize: 4, edgeGatewayMaxPageSize: 2 });
  client = createVcdClient({
    http: {
      connectionId: "vcd-1",
      baseUrl: standin.url,
      caPem: standin.caPem,
      retry: { attempts: 1 },
      maxBodyBytes: CAP,
    },
    credentials: {
      username: `${provider?.user}@${provider?.org}`,
      password: provider?.password ?? "",
    },
  });
  clean = await readVcdInventory(client, { parallelVms: 4 });
});

afterAll(async () => {
  await client?.close();
  await standin?.close();
});

const repliesFor = (path: string) =>
  hostileReplies(path.startsWith("/cloudapi/") ? "json" : "xml", GIGANTIC);

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
      standin.faults.clear();
      reply.install(standin.faults, "/api/query");
      standin.requests.length = 0;
      const outcome = await client
        .withSession(() => client.vmQueryPage(1))
        .then(
          (page) => ({ page }),
          (error: unknown) => ({ error }),
        );
      if ("page" in outcome) {
        // Attributes are optional one by one: numbers that are words are read as unknown, not fatal.
        expect(name).toBe("fields of the wrong type");
        expect(outcome.page.total).toBeNull();
        return;
      }
      const { error } = outcome;
      expect(error).toMatchObject({
        name: "HyperError",
        errorClass: name === "a reverse proxy's 502 page" ? "transient" : "malformed",
        source: "Cloud Director",
      });
      if (name === "a gigantic body") {
        expect((error as Error).message).toContain("larger than 256 KiB");
        const page = standin.requests.find((r) => r.path === "/api/query");
        expect(page?.sentBytes ?? 0).toBeLessThan(GIGANTIC / 4);
      }
      expect(standin.openSessions).toBe(0);
    },
  );
});

describe("a hostile answer to any GET of a read", () => {
  it("fails at most the list it belongs to, and the session is closed", async () => {
    standin.faults.clear();
    standin.requests.length = 0;
    await readVcdInventory(client, { parallelVms: 4 });
    const paths = pathsByRoute(standin.requests);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/api/query",
        "/cloudapi/1.0.0/edgeGateways",
        expect.stringMatching(/^\/api\/vApp\/vm-/),
      ]),
    );
    const vms = vmIds(clean);
    const edges = edgeIds(clean);
    expect([vms, edges]).not.toContain("failed");
    for (const path of paths) {
      const ofVmList = path === "/api/query" || path.startsWith("/api/vApp/");
      const ofEdges = path.startsWith("/cloudapi/1.0.0/edgeGateways");
      for (const reply of repliesFor(path)) {
        const where = `${reply.name} on ${path}`;
        standin.faults.clear();
        // A concrete path as a pattern matches only itself.
        reply.install(standin.faults, path);
        let snapshot: SourceSnapshot;
        try {
          snapshot = await readVcdInventory(client, { parallelVms: 4 });
        } catch (error) {
          expect(error, where).toMatchObject({ name: "HyperError", source: "Cloud Director" });
          expect.fail(`${where}: the whole read failed: ${(error as Error).message}`);
        } finally {
          expect(standin.openSessions, `${where}: a session was left open`).toBe(0);
        }
        const gotVms = vmIds(snapshot);
        const gotEdges = edgeIds(snapshot);
        // TRAP: SPEC §4 — a list that came back is whole; only the list the answer belongs to may fail.
        if (gotVms !== "failed" || !ofVmList) expect(gotVms, `${where}: VMs`).toEqual(vms);
        if (gotEdges !== "incomplete" || !ofEdges)
          expect(gotEdges, `${where}: edge gateways`).toEqual(edges);
      }
    }
  }, 120_000);
});
