import { describe, expect, it } from "vitest";
import { normalizeMac } from "./mac.ts";

describe("normalizeMac", () => {
  it("MACs are compared case-insensitively by normalizing", () => {
    expect(normalizeMac("BC:24:11:2E:C5:4A")).toBe(normalizeMac("bc:24:11:2e:c5:4a"));
    expect(normalizeMac("BC-24-11-2E-C5-4A")).toBe("bc:24:11:2e:c5:4a");
    expect(normalizeMac("not-a-mac")).toBeNull();
  });

  it("reads any separator or none, and surrounding space", () => {
    expect(normalizeMac("0050.56b1.227d")).toBe("00:50:56:b1:22:7d");
    expect(normalizeMac("005056B1227D")).toBe("00:50:56:b1:22:7d");
    expect(normalizeMac(" 00:50:56:b1:22:7d ")).toBe("00:50:56:b1:22:7d");
  });

  it("is null for no MAC or anything that is not 6 bytes of hex", () => {
    expect(normalizeMac(null)).toBeNull();
    expect(normalizeMac(undefined)).toBeNull();
    expect(normalizeMac("")).toBeNull();
    expect(normalizeMac("00:50:56:b1:22")).toBeNull();
    expect(normalizeMac("00:50:56:b1:22:7d:01")).toBeNull();
    expect(normalizeMac("00:50:56:b1:22:7g")).toBeNull();
  });
});
