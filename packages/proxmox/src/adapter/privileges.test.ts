import { describe, expect, it } from "vitest";
import { privilegeWarning } from "./privileges.ts";

describe("the read-only privilege check", () => {
  it("is silent for an auditor with guest-agent reads", () => {
    expect(
      privilegeWarning({
        "/": { "Sys.Audit": true, "VM.Audit": true, "Datastore.Audit": true },
        "/vms": { "VM.GuestAgent.Audit": true, "VM.Monitor": true },
      }),
    ).toBeNull();
  });

  it("names privileges beyond read-only", () => {
    const warning = privilegeWarning({
      "/": { "VM.Audit": true, "VM.PowerMgmt": true, "Sys.Modify": true },
    });
    expect(warning).toContain("Sys.Modify, VM.PowerMgmt");
    expect(warning).toContain("PVEAuditor");
  });

  it("ignores privileges that are listed but not granted", () => {
    expect(privilegeWarning({ "/": { "VM.Audit": true, "VM.Allocate": false } })).toBeNull();
  });
});
