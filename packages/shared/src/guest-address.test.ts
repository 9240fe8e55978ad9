import { describe, expect, it } from "vitest";
import { localAddressReason } from "./guest-address.ts";

describe("localAddressReason", () => {
  it("names loopback addresses, IPv4 and IPv6", () => {
    expect(localAddressReason("127.0.0.1")).toBe("loopback address");
    expect(localAddressReason("127.1.2.3")).toBe("loopback address");
    expect(localAddressReason("::1")).toBe("loopback address");
  });

  it("names link-local addresses, IPv4 and the whole of fe80::/10 in any case", () => {
    expect(localAddressReason("169.254.1.1")).toBe("link-local address");
    expect(localAddressReason("fe80::be24:11ff:fe89:6707")).toBe("link-local address");
    expect(localAddressReason("FEBF::1")).toBe("link-local address");
  });

  it("leaves every other address alone", () => {
    for (const address of ["10.0.0.5", "172.17.0.1", "2001:db8::1", "fec0::1", "1.127.0.1"]) {
      expect(localAddressReason(address)).toBeUndefined();
    }
  });
});
