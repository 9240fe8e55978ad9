import { describe, expect, it } from "vitest";
import {
  addressRuleProblems,
  compileAddressRules,
  DEFAULT_ADDRESS_RULES,
  MAX_RULE_ENTRIES,
  SUGGESTED_INTERFACE_PATTERNS,
} from "./rules.ts";

describe("the shipped address rules", () => {
  it("ignore the common container and overlay interfaces and keep tunnels, each with a reason", () => {
    expect(DEFAULT_ADDRESS_RULES.ignoredInterfaces).toEqual([
      "lo",
      "docker*",
      "br-*",
      "veth*",
      "cali*",
      "flannel*",
      "cni*",
      "virbr*",
    ]);
    const off = SUGGESTED_INTERFACE_PATTERNS.filter((p) => !p.isDefault).map((p) => p.pattern);
    expect(off).toEqual(["tun*", "wg*"]);
    for (const p of SUGGESTED_INTERFACE_PATTERNS) expect(p.why.length).toBeGreaterThan(10);
    expect(DEFAULT_ADDRESS_RULES).toMatchObject({ dropLinkLocal: true, keepUnmatchedMac: false });
  });
});

describe("addressRuleProblems", () => {
  const rules = (change: object) => ({ ...DEFAULT_ADDRESS_RULES, ...change });

  it("names each bad entry on its own field", () => {
    expect(
      addressRuleProblems(
        rules({
          ignoredInterfaces: ["docker*", "", " eth0", "*", "docker*"],
          permittedSubnets: ["10.0.0.0/8", "10.0.0.1/8"],
          ignoredSubnets: ["lan"],
          primary: { ...DEFAULT_ADDRESS_RULES.primary, preferredSubnets: ["fd00::/129"] },
        }),
      ),
    ).toEqual([
      { field: "ignoredInterfaces.1", message: "an interface pattern cannot be empty" },
      { field: "ignoredInterfaces.2", message: '" eth0" starts or ends with a space' },
      { field: "ignoredInterfaces.3", message: '"*" would ignore every interface' },
      { field: "ignoredInterfaces.4", message: "docker* is listed twice" },
      {
        field: "permittedSubnets.1",
        message: "10.0.0.1/8 has bits set past its prefix; the subnet is 10.0.0.0/8",
      },
      { field: "ignoredSubnets.0", message: "lan is not an IPv4 or IPv6 address" },
      {
        field: "primary.preferredSubnets.0",
        message: "fd00::/129: the prefix length must be a number from 0 to 128",
      },
    ]);
  });

  it("caps each list", () => {
    const many = Array.from({ length: MAX_RULE_ENTRIES + 1 }, (_, i) => `10.0.${i}.0/24`);
    expect(addressRuleProblems(rules({ ignoredSubnets: many }))).toEqual([
      { field: "ignoredSubnets", message: `at most ${MAX_RULE_ENTRIES} entries` },
    ]);
  });

  it("finds nothing wrong with the shipped rules, and compiling refuses bad ones", () => {
    expect(addressRuleProblems(DEFAULT_ADDRESS_RULES)).toEqual([]);
    expect(() => compileAddressRules(rules({ ignoredSubnets: ["lan"] }))).toThrow(
      "invalid address rules: ignoredSubnets.0: lan is not an IPv4 or IPv6 address",
    );
  });
});
