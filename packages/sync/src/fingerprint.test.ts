import { describe, expect, it } from "vitest";
import { canonicalJson, QUOTED_KEY_CACHE_LIMIT, quotedKeyCount } from "./canonical-json.ts";
import { fingerprintVm } from "./fingerprint.ts";
import { normalizeVm } from "./normalize.ts";
import { makeVm } from "./testing/builders.ts";

describe("the fingerprint", () => {
  it("is the same whatever order the source listed keys, tags and children in", () => {
    const vm = makeVm(100, {
      tags: ["b", "a"],
      nics: [
        { key: "net1", mac: "AA:00:00:00:00:01" },
        { key: "net0", mac: "aa:00:00:00:00:00" },
      ],
      details: { b: 1, a: { y: 2, x: 1 } },
    });
    const reordered = {
      ...vm,
      tags: ["a", "b"],
      nics: [
        { key: "net0", mac: "AA:00:00:00:00:00" },
        { mac: "aa:00:00:00:00:01", key: "net1" },
      ],
      details: { a: { x: 1, y: 2 }, b: 1 },
    };
    expect(fingerprintVm(normalizeVm(vm), "pve1/qemu")).toBe(
      fingerprintVm(normalizeVm(reordered), "pve1/qemu"),
    );
  });

  it("changes when a stored field or the list changes", () => {
    const vm = normalizeVm(makeVm(100));
    const base = fingerprintVm(vm, "pve1/qemu");
    expect(fingerprintVm(vm, "pve2/qemu")).not.toBe(base);
    expect(fingerprintVm({ ...vm, state: "STOPPED" }, "pve1/qemu")).not.toBe(base);
    expect(fingerprintVm({ ...vm, ipsFromGuestAreLive: false }, "pve1/qemu")).not.toBe(base);
    expect(fingerprintVm({ ...vm, details: { raw: { x: 1 } } }, "pve1/qemu")).not.toBe(base);
  });

  it("canonical JSON sorts keys and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: undefined, c: [1, { z: 1, y: null }] })).toBe(
      '{"b":1,"c":[1,{"y":null,"z":1}]}',
    );
  });

  it("normalizing keeps one reported address per (address, interface)", () => {
    const ip = {
      address: "10.0.0.1",
      origin: "AGENT" as const,
      interfaceName: "eth0",
      isAccepted: true,
    };
    const vm = makeVm(1, { ips: [ip, { ...ip, prefixLength: 24 }] });
    expect(normalizeVm(vm).reportedAddresses).toHaveLength(1);
  });

  it("normalizing lower-cases addresses, so one written in either case is one row", () => {
    const ip = { origin: "AGENT" as const, interfaceName: "eth0", isAccepted: true };
    const vm = makeVm(1, {
      ips: [
        { ...ip, address: "2001:DB8::A" },
        { ...ip, address: "2001:db8::a" },
      ],
    });
    expect(normalizeVm(vm).reportedAddresses.map((i) => i.address)).toEqual(["2001:db8::a"]);
  });

  it("keeps no more quoted keys than its limit, whatever keys a source invents", () => {
    const record = Object.fromEntries(
      Array.from({ length: QUOTED_KEY_CACHE_LIMIT + 50 }, (_, i) => [`k${i}`, i]),
    );
    expect(JSON.parse(canonicalJson(record))).toEqual(record);
    expect(quotedKeyCount()).toBe(QUOTED_KEY_CACHE_LIMIT);
  });
});
