import { type AddressRules, DEFAULT_ADDRESS_RULES } from "@hyperlens/shared";
import { describe, expect, it } from "vitest";
import { draftOf, patternsOf, rulesKey, rulesOfDraft, subnetsOf } from "./rules-draft.ts";

const SUGGESTED = ["lo", "docker*", "tun*"];

const rules = (overrides: Partial<AddressRules> = {}): AddressRules => ({
  ...DEFAULT_ADDRESS_RULES,
  ...overrides,
});

describe("address rules drafts (docs/behaviour.md §9.41)", () => {
  it("read interface patterns one a line, keeping the spaces inside a Windows name", () => {
    expect(patternsOf("  eth9 \n\n docker* \r\nLoopback Pseudo-Interface 1\n")).toEqual([
      "eth9",
      "docker*",
      "Loopback Pseudo-Interface 1",
    ]);
    expect(patternsOf("")).toEqual([]);
  });

  it("read subnets one a line, or separated by commas and spaces", () => {
    expect(subnetsOf("10.0.0.0/8\n 192.168.0.0/16, fd00::/8  2001:db8::/32,\n\n")).toEqual([
      "10.0.0.0/8",
      "192.168.0.0/16",
      "fd00::/8",
      "2001:db8::/32",
    ]);
    expect(subnetsOf("  \n ")).toEqual([]);
  });

  it("show suggested patterns as toggles and the others as lines", () => {
    const draft = draftOf(
      rules({ ignoredInterfaces: ["docker*", "eth9", "lo", "br-x"] }),
      SUGGESTED,
    );
    expect(draft.suggestedInterfaces).toEqual(["docker*", "lo"]);
    expect(draft.otherInterfaces).toBe("eth9\nbr-x");
  });

  it("send the ticked suggestions in the order offered, then the other patterns", () => {
    const draft = {
      ...draftOf(rules(), SUGGESTED),
      suggestedInterfaces: ["tun*", "lo"],
      otherInterfaces: " eth9\n\nwg0 ",
    };
    expect(rulesOfDraft(draft, SUGGESTED).ignoredInterfaces).toEqual(["lo", "tun*", "eth9", "wg0"]);
  });

  it("send every field of the draft, the preferred subnets in the order typed", () => {
    const draft = {
      suggestedInterfaces: ["lo"],
      otherInterfaces: "",
      permittedSubnets: "10.0.0.0/8",
      ignoredSubnets: "10.99.0.0/16\n172.16.0.0/12",
      preferredSubnets: "192.168.0.0/16\n10.0.0.0/8",
      dropLinkLocal: false,
      keepUnmatchedMac: true,
      family: "IPV6_FIRST" as const,
      origin: "GUEST_FIRST" as const,
    };
    expect(rulesOfDraft(draft, SUGGESTED)).toEqual({
      ignoredInterfaces: ["lo"],
      permittedSubnets: ["10.0.0.0/8"],
      ignoredSubnets: ["10.99.0.0/16", "172.16.0.0/12"],
      dropLinkLocal: false,
      keepUnmatchedMac: true,
      primary: {
        preferredSubnets: ["192.168.0.0/16", "10.0.0.0/8"],
        family: "IPV6_FIRST",
        origin: "GUEST_FIRST",
      },
    });
  });

  it("give back the rules they were made from", () => {
    const stored = rules({
      ignoredInterfaces: ["lo", "docker*", "eth9"],
      ignoredSubnets: ["10.99.0.0/16"],
      primary: { preferredSubnets: ["10.0.0.0/8"], family: "IPV6_FIRST", origin: "GUEST_FIRST" },
    });
    expect(rulesOfDraft(draftOf(stored, SUGGESTED), SUGGESTED)).toEqual(stored);
    expect(rulesOfDraft(draftOf(DEFAULT_ADDRESS_RULES, SUGGESTED), SUGGESTED)).toEqual(
      DEFAULT_ADDRESS_RULES,
    );
  });
});

describe("rulesKey", () => {
  it("is the same for rules listing the same interfaces and subnets in another order", () => {
    expect(rulesKey(rules({ ignoredInterfaces: ["lo", "wg*"], ignoredSubnets: ["a", "b"] }))).toBe(
      rulesKey(rules({ ignoredInterfaces: ["wg*", "lo"], ignoredSubnets: ["b", "a"] })),
    );
  });

  it("differs when the preferred subnets change order, or any other field changes", () => {
    const primary = DEFAULT_ADDRESS_RULES.primary;
    expect(
      rulesKey(rules({ primary: { ...primary, preferredSubnets: ["10.0.0.0/8", "fd00::/8"] } })),
    ).not.toBe(
      rulesKey(rules({ primary: { ...primary, preferredSubnets: ["fd00::/8", "10.0.0.0/8"] } })),
    );
    expect(rulesKey(rules({ dropLinkLocal: false }))).not.toBe(rulesKey(rules()));
    expect(rulesKey(rules({ keepUnmatchedMac: true }))).not.toBe(rulesKey(rules()));
    expect(rulesKey(rules({ permittedSubnets: ["10.0.0.0/8"] }))).not.toBe(rulesKey(rules()));
    expect(rulesKey(rules({ primary: { ...primary, family: "IPV6_FIRST" } }))).not.toBe(
      rulesKey(rules()),
    );
    expect(rulesKey(rules({ primary: { ...primary, origin: "GUEST_FIRST" } }))).not.toBe(
      rulesKey(rules()),
    );
  });
});
