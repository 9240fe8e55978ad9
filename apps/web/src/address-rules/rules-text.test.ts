import { ADDRESS_REJECT_RULES, SUGGESTED_INTERFACE_PATTERNS } from "@hyperlens/shared";
import { describe, expect, it } from "vitest";
import { patternWhyText, rejectRuleText } from "./rules-text.ts";

describe("the rules' words (docs/behaviour.md §9.41)", () => {
  it.each(SUGGESTED_INTERFACE_PATTERNS.map((s) => [s.pattern, s.why]))(
    "has its own words for why %s is suggested, not the API's",
    (pattern, why) => {
      const text = patternWhyText(pattern, "the API's English");
      expect(text).not.toBe("the API's English");
      // English reads as the API's reason; the other 13 languages are checked against English.
      expect(text).toBe(why);
    },
  );

  it("keeps the API's reason for a pattern it has no words for", () => {
    expect(patternWhyText("podman*", "Podman's bridge")).toBe("Podman's bridge");
  });

  it.each([...ADDRESS_REJECT_RULES])("names the rule %s in words", (rule) => {
    const text = rejectRuleText(rule);
    expect(text).not.toBe(rule);
    expect(text).not.toContain("addressRules.");
  });

  it("shows a rule it does not know as it is", () => {
    expect(rejectRuleText("SOMETHING_NEW")).toBe("SOMETHING_NEW");
    expect(rejectRuleText("IGNORED_SUBNET")).toBe("ignored subnet");
  });
});
