// Malformed Proxmox answers (issue 8), against the stand-in: fields of the wrong type, missing
// fields, a proxy's HTML page, truncated, empty, null and gigantic bodies, on every call a read
// makes. Each is a classified HyperError, never a crash, and fails at most the list it belongs to.
import type { SourceSnapshot } from "@hyperlens/shared";
import {
  agentInterface,
  createProxmoxStandin,
  DEFAULT_TOKEN,
  hostileReplies,
  lxcGuest,
  type ProxmoxStandin,
  pathsByRoute,
  proxmoxNode,
  qemuGuest,
} from "@hyperlens/standins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProxmoxClient, type ProxmoxClient } from "../client.ts";
import { readProxmoxInventory } from "./read-inventory.ts";

const CAP = 256 * 1024;
const GIGANTIC = 16 * 1024 * 1024;
const REPLIES = hostileReplies("json", GIGANTIC);

let standin: ProxmoxStandin;
let client: ProxmoxClient;
let clean: SourceSnapshot;

beforeAll(async () => {
  standin = await createProxmoxStandin({
    version: "9.1",
    cluster: {
      name: "lab",
      nodes: [proxmoxNode({ name: "pve1" }, 0), proxmoxNode({ name: "pve2" }, 1)],
      guests: [
        qemuGuest({
          vmid: 100,
          name: "web",
          node: "pve1",
          nics: [{ mac: "BC:24:11:AA:00:01", guestIps: ["10.0.0.10/24"] }],
          extraAgentInterfaces: [agentInterface("docker0", "02:42:ac:11:00:01", ["172.17.0.1/16"])],
        }),
        qemuGuest({ vmid: 101, name: "db", node: "pve2", nics: [{ mac: "BC:24:11:AA:00:02" }] }),
        lxcGuest({
          vmid: 200,
          name: "ct",
          node: "pve1",
          nics: [{ mac: "BC:24:11:BB:00:01", ip: "dhcp" }],
        }),
        lxcGuest({
          vmid: 201,
          name: "ct2",
          node: "pve2",
          nics: [{ mac: "BC:24:11:BB:00:02", ip: "10.0.1.5/24" }],
        }),
      ],
    },
  });
  client = createProxmoxClient({
    http: {
      connectionId: "c1",
      baseUrl: standin.url,
      caPem: standin.caPem,
      retry: { attempts: 1 },
      maxBodyBytes: CAP,
    },
    auth: { kind: "token", tokenId: DEFAULT_TOKEN.id, secret: DEFAULT_TOKEN.secret },
  });
  clean = await readProxmoxInventory(client);
});

afterAll(async () => {
  await client?.close();
  await standin?.close();
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

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("a hostile answer to a node's guest list", () => {
  it.each(REPLIES.map((r) => [r.name, r] as const))(
    "%s is a classified error",
    async (name, reply) => {
      standin.faults.clear();
      reply.install(standin.faults, "/nodes/pve1/qemu");
      standin.requests.length = 0;
      const error = await failure(client.qemuList("pve1"));
      expect(error).toMatchObject({
        name: "HyperError",
        errorClass: name === "a reverse proxy's 502 page" ? "transient" : "malformed",
        source: "Proxmox",
      });
      if (name === "a gigantic body") {
        expect((error as Error).message).toContain("larger than 256 KiB");
        const sent = standin.requests[0]?.sentBytes ?? 0;
        // Cut off at the cap: the rest of the body was never read (or sent).
        expect(sent).toBeLessThan(GIGANTIC / 4);
      }
    },
  );
});

describe("a hostile answer to any call of a read", () => {
  it("fails at most the list the call belongs to; every other list comes back whole", async () => {
    standin.faults.clear();
    standin.requests.length = 0;
    await readProxmoxInventory(client);
    const paths = pathsByRoute(standin.requests);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/api2/json/nodes",
        "/api2/json/nodes/pve1/qemu",
        "/api2/json/version",
      ]),
    );
    const expected = okLists(clean);
    for (const path of paths) {
      for (const reply of REPLIES) {
        const where = `${reply.name} on ${path}`;
        standin.faults.clear();
        // A concrete path as a pattern matches only itself.
        reply.install(standin.faults, path);
        let snapshot: SourceSnapshot;
        try {
          snapshot = await readProxmoxInventory(client);
        } catch (error) {
          // TRAP: SPEC §3 — only the node list may fail the whole read, and only as a classified error.
          expect(path, where).toBe("/api2/json/nodes");
          expect(error, where).toMatchObject({ name: "HyperError", source: "Proxmox" });
          continue;
        }
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
      }
    }
  }, 120_000);
});
