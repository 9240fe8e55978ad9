import { describe, expect, it } from "vitest";
import { decideGuard } from "./guard.ts";

describe("the guard decision", () => {
  it("fires when fewer than half of the known guests are present", () => {
    expect(decideGuard(40, 3)).toEqual({
      known: 40,
      present: 3,
      allowsRemoval: false,
      message:
        "Removal suppressed: only 3 of 40 known guests in the lists that came back were present (fewer than half).",
      text: { code: "syncGuardFired", params: { present: 3, known: 40, subject: "guests" } },
    });
    expect(decideGuard(5, 2).allowsRemoval).toBe(false);
  });

  it("allows removal when exactly half are present", () => {
    expect(decideGuard(40, 20).allowsRemoval).toBe(true);
    expect(decideGuard(5, 3).allowsRemoval).toBe(true);
  });

  it("does not fire when nothing was known", () => {
    expect(decideGuard(0, 0).allowsRemoval).toBe(true);
  });

  it("names what it protects", () => {
    expect(decideGuard(4, 1, "edge gateways").message).toContain("1 of 4 known edge gateways");
  });
});
