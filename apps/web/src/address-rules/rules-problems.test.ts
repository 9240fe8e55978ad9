import { DEFAULT_ADDRESS_RULES, MAX_RULE_ENTRIES } from "@hyperlens/shared";
import { describe, expect, it } from "vitest";
import { hasProblems, localProblems, placeOfProblem, serverProblems } from "./rules-problems.ts";

describe("placeOfProblem", () => {
  it("finds the list and the entry a dotted path names, under any input name", () => {
    expect(placeOfProblem("permittedSubnets.2")).toEqual({ field: "permittedSubnets", index: 2 });
    expect(placeOfProblem("primary.preferredSubnets.0")).toEqual({
      field: "preferredSubnets",
      index: 0,
    });
    expect(placeOfProblem("rules.ignoredInterfaces.1")).toEqual({
      field: "ignoredInterfaces",
      index: 1,
    });
    expect(placeOfProblem("ignoredSubnets")).toEqual({ field: "ignoredSubnets" });
  });

  it("puts a problem with no field, or one the editor does not show, on the form", () => {
    expect(placeOfProblem(null)).toEqual({ field: "form" });
    expect(placeOfProblem("connectionId")).toEqual({ field: "form" });
  });
});

describe("localProblems (docs/behaviour.md §9.41)", () => {
  it("finds none in the shipped rules", () => {
    expect(localProblems(DEFAULT_ADDRESS_RULES)).toEqual({});
    expect(hasProblems(localProblems(DEFAULT_ADDRESS_RULES))).toBe(false);
  });

  it("says which subnet is not one, beside its list", () => {
    const problems = localProblems({
      ...DEFAULT_ADDRESS_RULES,
      permittedSubnets: ["10.0.0.0/8", "10.0.0.1/8"],
      primary: { ...DEFAULT_ADDRESS_RULES.primary, preferredSubnets: ["10.300.0.0/16"] },
    });
    expect(problems).toEqual({
      permittedSubnets: [
        "“10.0.0.1/8” is not a subnet: write an IPv4 or IPv6 address with its prefix length, e.g. 10.0.0.0/8, with no bits set past the prefix.",
      ],
      preferredSubnets: [
        "“10.300.0.0/16” is not a subnet: write an IPv4 or IPv6 address with its prefix length, e.g. 10.0.0.0/8, with no bits set past the prefix.",
      ],
    });
    expect(hasProblems(problems)).toBe(true);
  });

  it("says an interface pattern that would ignore every interface is not usable", () => {
    expect(localProblems({ ...DEFAULT_ADDRESS_RULES, ignoredInterfaces: ["lo", "*"] })).toEqual({
      ignoredInterfaces: [
        "“*” is not a usable interface pattern: at most 64 characters, no control characters, and not only *.",
      ],
    });
  });

  it("says an entry listed twice is listed twice, on the second one only", () => {
    expect(
      localProblems({ ...DEFAULT_ADDRESS_RULES, ignoredSubnets: ["10.99.0.0/16", "10.99.0.0/16"] }),
    ).toEqual({ ignoredSubnets: ["10.99.0.0/16 is listed twice."] });
  });

  it("says a list is too long once, not once per entry", () => {
    const many = Array.from({ length: MAX_RULE_ENTRIES + 1 }, (_, i) => `10.${i}.0.0/16`);
    expect(localProblems({ ...DEFAULT_ADDRESS_RULES, ignoredSubnets: many })).toEqual({
      ignoredSubnets: [`At most ${MAX_RULE_ENTRIES} entries.`],
    });
  });
});

describe("serverProblems", () => {
  it("shows the API's problems in its words beside their fields, the rest on the form", () => {
    expect(
      serverProblems([
        { field: "rules.permittedSubnets.2", message: "10.0.0.1/8 has bits set past its prefix" },
        { field: "primary.preferredSubnets.0", message: "not an address" },
        { field: "permittedSubnets.3", message: "listed twice" },
        { field: null, message: "the connection is gone" },
      ]),
    ).toEqual({
      permittedSubnets: ["10.0.0.1/8 has bits set past its prefix", "listed twice"],
      preferredSubnets: ["not an address"],
      form: ["the connection is gone"],
    });
  });
});
