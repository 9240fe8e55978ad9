import { describe, expect, it } from "vitest";
import {
  agentPrivilege,
  agentPrivilegeWarning,
  connectionPrivilegeWarning,
  privilegeWarning,
} from "./privileges.ts";

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

describe("the agent privilege check (docs/behaviour.md §10.11)", () => {
  const v = (major: number | null) => ({
    version: `${major}.0`,
    release: null,
    repoid: null,
    major,
    minor: major === null ? null : 0,
  });
  const auditor = { "Sys.Audit": true, "VM.Audit": true, "Datastore.Audit": true };

  it("warns on Proxmox VE 9 when the token lacks VM.GuestAgent.Audit", () => {
    const warning = agentPrivilegeWarning({ "/": auditor }, v(9));
    expect(warning).toContain("VM.GuestAgent.Audit");
    expect(warning).toContain("Proxmox VE 9");
    // VM.Monitor is what 8 checks; on 9 it no longer opens the agent.
    expect(agentPrivilegeWarning({ "/": { ...auditor, "VM.Monitor": true } }, v(9))).toContain(
      "VM.GuestAgent.Audit",
    );
  });

  it("warns on Proxmox VE 8 when the token lacks VM.Monitor, which VM.GuestAgent.Audit does not replace", () => {
    expect(agentPrivilegeWarning({ "/": auditor }, v(8))).toContain("lack VM.Monitor");
    expect(
      agentPrivilegeWarning({ "/": { ...auditor, "VM.GuestAgent.Audit": true } }, v(8)),
    ).toContain("lack VM.Monitor");
  });

  it("is silent when the version's privilege is granted on some path", () => {
    expect(agentPrivilegeWarning({ "/vms": { "VM.GuestAgent.Audit": true } }, v(9))).toBeNull();
    expect(
      agentPrivilegeWarning({ "/vms": { "VM.GuestAgent.Unrestricted": true } }, v(9)),
    ).toBeNull();
    expect(agentPrivilegeWarning({ "/": { "VM.Monitor": true } }, v(8))).toBeNull();
  });

  it("takes either privilege when the version is unknown, and names both", () => {
    expect(agentPrivilegeWarning({ "/": { "VM.Monitor": true } }, null)).toBeNull();
    expect(agentPrivilege(null)).toBe("VM.GuestAgent.Audit / VM.Monitor");
    expect(agentPrivilege(v(9))).toBe("VM.GuestAgent.Audit");
    expect(agentPrivilege(v(7))).toBe("VM.Monitor");
  });

  it("joins both warnings for a Test: too much, and too little for the agent", () => {
    const warning = connectionPrivilegeWarning({ "/": { ...auditor, "VM.PowerMgmt": true } }, v(9));
    expect(warning).toContain("more than read (VM.PowerMgmt)");
    expect(warning).toContain("lack VM.GuestAgent.Audit");
    expect(
      connectionPrivilegeWarning({ "/": { ...auditor, "VM.Monitor": true } }, v(8)),
    ).toBeNull();
  });
});
