// docs/behaviour.md §14.11 and §14.13: the primary-address order and the group names on their own,
// beside the end-to-end tests through Ansible and Prometheus.
import { describe, expect, it } from "vitest";
import { groupName, osFamily } from "./ansible-inventory.ts";
import { parseCidrList } from "./client-address.ts";
import { orderAddresses, suffixedHostName } from "./inventory-hosts.ts";
import { targetOf } from "./prometheus-sd.ts";

const subnets = (text: string) => parseCidrList(text).networks;

describe("the primary address (§14.11)", () => {
  const addresses = ["2001:db8::5", "fd00:10::5", "192.0.2.5", "10.20.0.5", "10.10.0.5"];

  it("is IPv4 first by default, then in text order", () => {
    expect(orderAddresses(addresses, { family: "ipv4", subnets: [] })).toEqual([
      "10.10.0.5",
      "10.20.0.5",
      "192.0.2.5",
      "2001:db8::5",
      "fd00:10::5",
    ]);
  });

  it("is IPv6 first when preferred", () => {
    expect(orderAddresses(addresses, { family: "ipv6", subnets: [] })[0]).toBe("2001:db8::5");
  });

  it("comes from the listed networks first, in their order, IPv6 networks included", () => {
    const preference = { family: "ipv4" as const, subnets: subnets("fd00::/8,10.20.0.0/16") };
    expect(orderAddresses(addresses, preference).slice(0, 3)).toEqual([
      "fd00:10::5",
      "10.20.0.5",
      "10.10.0.5",
    ]);
  });
});

describe("names (§14.10, §14.13, §14.15)", () => {
  it("suffixes a shared name with the first 8 hex digits of the id", () => {
    expect(suffixedHostName("web-01", "3f9c2a1b-0000-4000-8000-000000000000")).toBe(
      "web-01-3f9c2a1b",
    );
  });

  it("makes group names of letters, digits and underscores", () => {
    expect(groupName("connection", "Prod Cluster (EU-1)")).toBe("connection_prod_cluster__eu_1_");
    expect(groupName("tag", "k8s.io/role")).toBe("tag_k8s_io_role");
  });

  it("reads the OS family from each source's spelling", () => {
    expect(osFamily("l26")).toBe("linux");
    expect(osFamily("win11")).toBe("windows");
    expect(osFamily("Microsoft Windows Server 2022 (64-bit)")).toBe("windows");
    expect(osFamily("Ubuntu Linux (64-bit)")).toBe("linux");
    expect(osFamily("FreeBSD 14 (64-bit)")).toBe("bsd");
    expect(osFamily("Darwin")).toBe("other");
    expect(osFamily(null)).toBeUndefined();
  });

  it("brackets IPv6 targets", () => {
    expect(targetOf("2001:db8::5", 9100)).toBe("[2001:db8::5]:9100");
    expect(targetOf("10.0.0.5", 9100)).toBe("10.0.0.5:9100");
    expect(targetOf("2001:db8::5", undefined)).toBe("[2001:db8::5]");
  });
});
