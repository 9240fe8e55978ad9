import { describe, expect, it } from "vitest";
import { firstRunBanner } from "./first-run-banner.ts";

const TOKEN = "setup_0123456789abcdef";

describe("the first-run banner", () => {
  const lines = firstRunBanner("http://localhost:4000", TOKEN).split("\n");

  it("prints the setup token once, on a line of its own that says what it is", () => {
    const withToken = lines.filter((line) => line.includes(TOKEN));
    expect(withToken).toEqual([`  Setup token:  ${TOKEN}`]);
  });

  it("frames the block so it stands out from the JSON log lines around it", () => {
    const rules = lines.flatMap((line, i) => (/^={40,}$/.test(line) ? [i] : []));
    expect(rules).toHaveLength(2);
    const tokenAt = lines.findIndex((line) => line.includes(TOKEN));
    expect(tokenAt).toBeGreaterThan(rules[0] ?? Infinity);
    expect(tokenAt).toBeLessThan(rules[1] ?? -Infinity);
    expect(lines.some((line) => line.trimStart().startsWith("{"))).toBe(false);
  });

  it("names both ways to create the administrator", () => {
    expect(lines.join("\n")).toContain("http://localhost:4000/setup");
    expect(lines.join("\n")).toContain("user create <name> --admin");
  });
});
