// Malformed vCenter answers (issue 8), against the stand-in: wrong types, missing fields, a proxy's
// HTML page, truncated, empty, null and gigantic bodies, on every GET a read makes. Each is a
// classified HyperError, never a crash; it fails at most the one VM list, and the session is closed.
import * as hostile from "@hyperlens/hyper-http/testing";
import type { SourceSnapshot } from "@hyperlens/shared";
import {
  createVcenterStandin,
  DEFAULT_VCENTER_PASSWORD,
  DEFAULT_VCENTER_USERS,
  hostileReplies,
  pathsByRoute,
} from "@hyperlens/standins/testing";
import { describe, expect, it } from "vitest";
import { createVcenterClient } from "../client.ts";
import { readVcenterInventory, VCENTER_VM_LIST_KEY } from "./read-inventory.ts";

const REPLIES = hostileReplies("json", hostile.GIGANTIC);

const bed = hostile.testBed({
  connectionId: "vc-1",
  start: () => createVcenterStandin(),
  connect: (http) =>
    createVcenterClient({
      http,
      credentials: {
        username: DEFAULT_VCENTER_USERS[0]?.user ?? "",
        password: DEFAULT_VCENTER_PASSWORD,
      },
    }),
  read: (client) => readVcenterInventory(client),
});

function vmIds(snapshot: SourceSnapshot): string[] | "failed" {
  const list = snapshot.lists.find((l) => l.key === VCENTER_VM_LIST_KEY);
  return list?.status === "ok" ? list.vms.map((v) => v.externalId).sort() : "failed";
}

describe("a hostile answer to the VM list", () => {
  it.each(REPLIES.map((r) => [r.name, r] as const))(
    "%s is a classified error",
    async (name, reply) => {
      const outcome = await hostile.answerWith(bed.standin, reply, "/api/vcenter/vm", () =>
        bed.client.withSession(() => bed.client.readVmListing([])),
      );
      expect(bed.standin.openSessions).toBe(0);
      if ("value" in outcome) {
        // Only a list whose entries lost their fields may still be read; it then says it is incomplete.
        expect(name).toBe("missing fields");
        expect(outcome.value.isComplete).toBe(false);
        return;
      }
      const list = bed.standin.requests.find((r) => r.path === "/api/vcenter/vm");
      hostile.expectClassified(outcome.error, name, "vCenter", list?.sentBytes);
    },
  );
});

describe("a hostile answer to any GET of a read", () => {
  it("fails at most the VM list, never the read, and the session is closed", async () => {
    const vms = vmIds(bed.clean);
    expect(vms).not.toBe("failed");
    await hostile.sweep({
      standin: bed.standin,
      read: () => readVcenterInventory(bed.client),
      pathsOf: pathsByRoute,
      mustCall: [
        "/api/vcenter/vm",
        "/api/vcenter/host",
        expect.stringMatching(/^\/api\/vcenter\/vm\/vm-/),
      ],
      replies: () => REPLIES,
      check: (outcome, where) => {
        expect(bed.standin.openSessions, `${where}: a session was left open`).toBe(0);
        if ("error" in outcome)
          expect.fail(`${where}: the whole read failed: ${(outcome.error as Error).message}`);
        const got = vmIds(outcome.value);
        // TRAP: docs/behaviour.md §5 — a list that came back is whole; a hostile answer may only fail it.
        if (got !== "failed") expect(got, where).toEqual(vms);
        else
          expect(outcome.value.lists[0], where).toMatchObject({
            reason: expect.stringMatching(/vCenter server/),
          });
      },
    });
  }, 120_000);
});
