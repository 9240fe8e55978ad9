import { describe, expect, it } from "vitest";
import { missingReasonText } from "./missing-reason-text.ts";

const reason = (code: string, privilege: string | null = null, message: string | null = null) => ({
  code,
  privilege,
  message,
});

describe("missingReasonText (docs/behaviour.md §10.11)", () => {
  it("names the privilege the credentials lack", () => {
    expect(missingReasonText(reason("PERMISSION_MISSING", "VM.GuestAgent.Audit"))).toBe(
      "The credentials lack the VM.GuestAgent.Audit privilege.",
    );
    expect(missingReasonText(reason("PERMISSION_MISSING"))).toBe(
      "The credentials lack a privilege this read needs.",
    );
  });

  it("quotes the source's words for a failed read", () => {
    expect(missingReasonText(reason("READ_FAILED", null, "got timeout"))).toBe(
      "The source answered with an error: got timeout",
    );
  });

  it.each([
    "VM_NOT_RUNNING",
    "CONTAINER_STOPPED",
    "AGENT_NOT_CONFIGURED",
    "AGENT_NOT_RUNNING",
    "TOOLS_NOT_RUNNING",
    "NOT_OFFERED_BY_SOURCE",
    "LIST_FAILED",
    "NOT_REPORTED_BY_GUEST",
  ])("has a sentence for %s", (code) => {
    const text = missingReasonText(reason(code));
    expect(text).not.toBe(code);
    expect(text).not.toContain("missingReason.");
  });

  it("shows a code it does not know as it is", () => {
    expect(missingReasonText(reason("SOMETHING_NEW"))).toBe("SOMETHING_NEW");
  });
});
