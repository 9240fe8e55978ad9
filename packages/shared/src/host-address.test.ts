import { describe, expect, it } from "vitest";
import { normalizeHost } from "./host-address.ts";

describe("normalizeHost", () => {
  it("keeps the lower-case host and drops the default port and any path", () => {
    expect(normalizeHost("https://VC01.Example.com")).toBe("vc01.example.com");
    expect(normalizeHost("https://vc01.example.com:443")).toBe("vc01.example.com");
    expect(normalizeHost("https://vc01.example.com:443/sdk")).toBe("vc01.example.com");
    expect(normalizeHost("https://vc01.example.com/")).toBe("vc01.example.com");
    expect(normalizeHost("  https://vc01.example.com.  ")).toBe("vc01.example.com");
  });

  it("keeps a port other than 443, so two servers on one host stay apart", () => {
    expect(normalizeHost("https://127.0.0.1:8443")).toBe("127.0.0.1:8443");
    expect(normalizeHost("https://127.0.0.1:9443/")).not.toBe(normalizeHost("https://127.0.0.1"));
    expect(normalizeHost("http://vc01")).toBe("vc01:80");
    expect(normalizeHost("https://[2001:DB8::1]:8443")).toBe("[2001:db8::1]:8443");
  });

  it("reads a bare host as https and gives up on what has no host", () => {
    expect(normalizeHost("vc01.example.com")).toBe("vc01.example.com");
    expect(normalizeHost("vc01.example.com:8443")).toBe("vc01.example.com:8443");
    expect(normalizeHost("")).toBeNull();
    expect(normalizeHost("https://")).toBeNull();
    expect(normalizeHost("https://exa mple")).toBeNull();
  });
});
