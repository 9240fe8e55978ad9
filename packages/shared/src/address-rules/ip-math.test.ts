import { describe, expect, it } from "vitest";
import {
  addressKey,
  parseAddress,
  parseSubnet,
  type Subnet,
  subnetContains,
  subnetKeyRange,
} from "./ip-math.ts";

const subnet = (text: string): Subnet => {
  const parsed = parseSubnet(text);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
};
const inside = (subnetText: string, address: string): boolean => {
  const parsed = parseAddress(address);
  if (!parsed) throw new Error(`${address} did not parse`);
  return subnetContains(subnet(subnetText), parsed);
};

describe("parseAddress", () => {
  it("reads IPv4 and every IPv6 spelling to the same bytes", () => {
    expect(Array.from(parseAddress("10.1.2.3")?.bytes ?? [])).toEqual([10, 1, 2, 3]);
    const full = parseAddress("2001:0db8:0000:0000:0000:0000:0000:0001");
    expect(parseAddress("2001:db8::1")).toEqual(full);
    expect(parseAddress("2001:DB8::1")).toEqual(full);
    expect(parseAddress("::ffff:10.0.0.1")?.bytes.slice(10)).toEqual(
      new Uint8Array([0xff, 0xff, 10, 0, 0, 1]),
    );
    expect(parseAddress("::")?.bytes).toEqual(new Uint8Array(16));
  });

  it("refuses what is not an address", () => {
    for (const text of [
      "",
      "10.0.0",
      "10.0.0.256",
      "1.2.3.4.5",
      "2001:db8:::1",
      "1::2::3",
      "fe80::1%eth0",
      "g::1",
      "1:2:3:4:5:6:7:8:9",
      "a.b.c.d",
    ]) {
      expect(parseAddress(text), text).toBeNull();
    }
  });
});

describe("parseSubnet", () => {
  it("says exactly what is wrong with a subnet", () => {
    expect(parseSubnet("10.0.0.5/8")).toEqual({
      error: "10.0.0.5/8 has bits set past its prefix; the subnet is 10.0.0.0/8",
    });
    expect(parseSubnet("2001:db8::1/32")).toEqual({
      error: "2001:db8::1/32 has bits set past its prefix; the subnet is 2001:db8::/32",
    });
    expect(parseSubnet("10.0.0.0/33")).toEqual({
      error: "10.0.0.0/33: the prefix length must be a number from 0 to 32",
    });
    expect(parseSubnet("fd00::/x")).toEqual({
      error: "fd00::/x: the prefix length must be a number from 0 to 128",
    });
    expect(parseSubnet("intranet/8")).toEqual({ error: "intranet is not an IPv4 or IPv6 address" });
    expect(parseSubnet("10.0.0.0/8/9")).toEqual({ error: '10.0.0.0/8/9 has more than one "/"' });
  });

  it("takes a bare address as a subnet of one", () => {
    expect(subnet("10.0.0.5").prefixLength).toBe(32);
    expect(subnet("2001:db8::5").prefixLength).toBe(128);
  });
});

describe("subnetContains", () => {
  it("compares prefixes bit by bit, within one family", () => {
    expect(inside("10.0.0.0/8", "10.255.1.1")).toBe(true);
    expect(inside("10.0.0.0/8", "11.0.0.1")).toBe(false);
    expect(inside("172.16.0.0/12", "172.31.255.255")).toBe(true);
    expect(inside("172.16.0.0/12", "172.32.0.1")).toBe(false);
    expect(inside("2001:db8::/32", "2001:db8:ffff::1")).toBe(true);
    expect(inside("2001:db8::/33", "2001:db8:8000::1")).toBe(false);
    expect(inside("0.0.0.0/0", "2001:db8::1")).toBe(false);
    expect(inside("::/0", "2001:db8::1")).toBe(true);
    expect(inside("10.0.0.5", "10.0.0.5")).toBe(true);
    expect(inside("10.0.0.5", "10.0.0.6")).toBe(false);
  });
});

describe("address keys (docs/behaviour.md §9.43)", () => {
  it("are fixed-width, so text order is numeric order within a family", () => {
    expect(addressKey("10.9.0.1")).toBe("40a090001");
    expect(addressKey("10.10.0.1")).toBe("40a0a0001");
    expect(addressKey("fd00::1")).toBe(`6fd00${"0".repeat(27)}1`);
    expect(addressKey("fe80::1%eth0")).toBeNull();
  });

  it("bound exactly the addresses a subnet holds, on and off byte boundaries", () => {
    const cases = [
      ["10.10.0.0/24", "10.10.0.255", "10.10.1.0"],
      ["10.10.16.0/20", "10.10.31.255", "10.10.32.0"],
      ["0.0.0.0/0", "255.255.255.255", "::1"],
      ["fd00::/64", "fd00::ffff:ffff:ffff:ffff", "fd00:0:0:1::"],
    ] as const;
    for (const [text, lastInside, firstOutside] of cases) {
      const { from, to } = subnetKeyRange(subnet(text));
      const key = (address: string) => addressKey(address) ?? "";
      expect(key(text.split("/")[0] as string)).toBe(from);
      expect(key(lastInside)).toBe(to);
      const outside = key(firstOutside);
      expect(outside < from || outside > to).toBe(true);
    }
  });
});
