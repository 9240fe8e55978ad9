import { type AddressRules, DEFAULT_ADDRESS_RULES } from "@hyperlens/shared";
import { describe, expect, it } from "vitest";
import { changeKey, type RulesChange, saveReadiness } from "./rules-change.ts";

const shipped: RulesChange = { rules: DEFAULT_ADDRESS_RULES };
const edited: AddressRules = { ...DEFAULT_ADDRESS_RULES, ignoredSubnets: ["10.99.0.0/16"] };
const fallback: RulesChange = { rules: null };

describe("saveReadiness (docs/behaviour.md §9.41)", () => {
  it("has nothing to save while the change is what is stored", () => {
    expect(
      saveReadiness({
        stored: shipped,
        next: shipped,
        hasProblems: false,
        previewedKey: undefined,
      }),
    ).toBe("UNCHANGED");
    expect(
      saveReadiness({
        stored: shipped,
        next: { rules: { ...DEFAULT_ADDRESS_RULES, ignoredInterfaces: ["wg*"] } },
        hasProblems: false,
        previewedKey: undefined,
      }),
    ).not.toBe("UNCHANGED");
    expect(
      saveReadiness({ stored: fallback, next: fallback, hasProblems: false, previewedKey: "x" }),
    ).toBe("UNCHANGED");
  });

  it("asks for the problems to be fixed before anything else", () => {
    expect(
      saveReadiness({
        stored: shipped,
        next: { rules: edited },
        hasProblems: true,
        previewedKey: changeKey({ rules: edited }),
      }),
    ).toBe("INVALID");
  });

  it("asks for a preview of a change not previewed, or edited since its preview", () => {
    const next = { rules: edited };
    expect(
      saveReadiness({ stored: shipped, next, hasProblems: false, previewedKey: undefined }),
    ).toBe("NEEDS_PREVIEW");
    const previewedBefore = changeKey({
      rules: { ...DEFAULT_ADDRESS_RULES, ignoredSubnets: ["10.98.0.0/16"] },
    });
    expect(
      saveReadiness({ stored: shipped, next, hasProblems: false, previewedKey: previewedBefore }),
    ).toBe("NEEDS_PREVIEW");
  });

  it("saves the very change that was previewed", () => {
    const next = { rules: edited };
    expect(
      saveReadiness({ stored: shipped, next, hasProblems: false, previewedKey: changeKey(next) }),
    ).toBe("READY");
  });

  it("tells storing no rules (back to the shipped or global ones) from storing rules equal to them", () => {
    expect(changeKey(fallback)).not.toBe(changeKey(shipped));
    expect(
      saveReadiness({
        stored: shipped,
        next: fallback,
        hasProblems: false,
        previewedKey: changeKey(fallback),
      }),
    ).toBe("READY");
    expect(
      saveReadiness({
        stored: fallback,
        next: shipped,
        hasProblems: false,
        previewedKey: changeKey(shipped),
      }),
    ).toBe("READY");
  });
});
