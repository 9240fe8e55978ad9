// Malformed vCenter answers (issue 8), against the stand-in: wrong types, missing fields, a proxy's
// HTML page, truncated, empty, null and gigantic bodies, on every GET a read makes. Each is a
// classified HyperError, never a crash; it fails at most the one VM list, and the session is closed.
import type { SourceSnapshot } from "@hyperlens/shared";
import {
  createVcenterStandin,
  DEFAULT_VCENTER_PASSWORD,
  DEFAULT_VCENTER_USERS,
  hostileReplies,
  pathsByRoute,
  type VcenterStandin,
} from "@hyperlens/standins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVcenterClient, type VcenterClient } from "../client.ts";
import { readVcenterInventory, VCENTER_VM_LIST_KEY } from "./read-inventory.ts";

const CAP = 256 * 1024;
const GIGANTIC = 16 * 1024 * 1024;
const REPLIES = hostileReplies("json", GIGANTIC);

let standin: VcenterStandin;
let client: VcenterClient;
let clean: SourceSnapshot;

beforeAll(async () => {
  standin = await createVcenterStandin();
  client = createVcenterClient({
    http: {
      connectionId: "vc-1",
      baseUrl: standin.url,
      caPem: standin.caPem,
      retry: { attempts: 1 },
      maxBodyBytes: CAP,
    },
    credentials: {
      username: DEFAULT_VCENTER_USERS[0]?.user ?? "",
      password: DEFAULT_VCENTER_PASSWORD,
    },
  });
  clean = await readVcenterInventory(client);
});

afterAll(async () => {
  await client?.close();
  await standin?.close();
});

function vmIds(snapshot: SourceSnapshot): string[] | "failed" {
  const list = snapshot.lists.find((l) => l.key === VCENTER_VM_LIST_KEY);
  return list?.status === "ok" ? list.vms.map((v) => v.externalId).sort() : "failed";
}

describe("a hostile answer to the VM list", () => {
  it.each(REPLIES.map((r) => [r.name, r] as const))(
    "%s is a classified error",
    async (name, reply) => {
      standin.faults.clear();
      reply.install(standin.faults, "/api/vcenter/vm");
      standin.requests.length = 0;
      const outcome = await client
        .withSession(() => client.readVmListing([]))
        .then(
          (listing) => ({ listing }),
          (error: unknown) => ({ error }),
        );
      expect(standin.openSessions).toBe(0);
      if ("listing" in outcome) {
        // Only a list whose entries lost their fields may still be read; it then says it is incomplete.
        expect(name).toBe("missing fields");
        expect(outcome.listing.isComplete).toBe(false);
        return;
      }
      expect(outcome.error).toMatchObject({
        name: "HyperError",
        errorClass: name === "a reverse proxy's 502 page" ? "transient" : "malformed",
        source: "vCenter",
      });
      if (name === "a gigantic body") {
        expect((outcome.error as Error).message).toContain("larger than 256 KiB");
        const list = standin.requests.find((r) => r.path === "/api/vcenter/vm");
        expect(list?.sentBytes ?? 0).toBeLessThan(GIGANTIC / 4);
      }
    },
  );
});

describe("a hostile answer to any GET of a read", () => {
  it("fails at most the VM list, never the read, and the session is closed", async () => {
    standin.faults.clear();
    standin.requests.length = 0;
    await readVcenterInventory(client);
    const paths = pathsByRoute(standin.requests);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/api/vcenter/vm",
        "/api/vcenter/host",
        expect.stringMatching(/^\/api\/vcenter\/vm\/vm-/),
      ]),
    );
    const vms = vmIds(clean);
    expect(vms).not.toBe("failed");
    for (const path of paths) {
      for (const reply of REPLIES) {
        const where = `${reply.name} on ${path}`;
        standin.faults.clear();
        // A concrete path as a pattern matches only itself.
        reply.install(standin.faults, path);
        let snapshot: SourceSnapshot;
        try {
          snapshot = await readVcenterInventory(client);
        } catch (error) {
          expect.fail(`${where}: the whole read failed: ${(error as Error).message}`);
        } finally {
          expect(standin.openSessions, `${where}: a session was left open`).toBe(0);
        }
        const got = vmIds(snapshot);
        // TRAP: SPEC §5 — a list that came back is whole; a hostile answer may only fail it.
        if (got !== "failed") expect(got, where).toEqual(vms);
        else
          expect(snapshot.lists[0], where).toMatchObject({
            reason: expect.stringMatching(/vCenter server/),
          });
      }
    }
  }, 120_000);
});
