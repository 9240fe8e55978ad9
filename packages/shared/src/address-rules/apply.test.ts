// docs/behaviour.md §10.9: each shipped rule, each option, and the primary address.
import { describe, expect, it } from "vitest";
import { type AddressRejectRule, applyAddressRules, type ReportedAddress } from "./apply.ts";
import { type AddressRules, compileAddressRules, DEFAULT_ADDRESS_RULES } from "./rules.ts";

const NIC_MAC = "bc:24:11:89:67:07";
const nics = [
  { key: "net0", mac: NIC_MAC },
  { key: "net1", mac: "bc:24:11:00:00:02" },
];
const guest = (
  interfaceName: string,
  address: string,
  extra: Partial<ReportedAddress> = {},
): ReportedAddress => ({
  address,
  origin: "AGENT",
  reportedBy: "guest",
  interfaceName,
  mac: NIC_MAC.toUpperCase(),
  ...extra,
});
const configured = (nicKey: string, address: string): ReportedAddress => ({
  address,
  origin: "STATIC_CONFIG",
  reportedBy: "config",
  nicKey,
});

function withRules(
  change: Partial<AddressRules> = {},
  primary: Partial<AddressRules["primary"]> = {},
) {
  return compileAddressRules({
    ...DEFAULT_ADDRESS_RULES,
    ...change,
    primary: { ...DEFAULT_ADDRESS_RULES.primary, ...primary },
  });
}

/** address → the rule that rejected it, or "accepted". */
function verdicts(reported: ReportedAddress[], rules = withRules()) {
  const { ips } = applyAddressRules(reported, nics, rules);
  return Object.fromEntries(
    ips.map((ip) => [
      ip.address,
      ip.isAccepted ? "accepted" : (ip.rejectRule as AddressRejectRule),
    ]),
  );
}

describe("the shipped rules", () => {
  it("ignore each overlay and container interface by name, even one carrying the NIC's MAC", () => {
    const names = ["docker0", "br-5f1c2a", "veth12ab", "cali7d2", "flannel.1", "cni0", "virbr0"];
    const reported = names.map((name, i) => guest(name, `172.17.${i}.1`));
    const { ips } = applyAddressRules(reported, nics, withRules());
    for (const [i, ip] of ips.entries()) {
      expect(ip.isAccepted, names[i]).toBe(false);
      expect(ip.rejectRule).toBe("IGNORED_INTERFACE");
    }
    expect(ips[0]?.rejectReason).toBe(
      "docker0: interface name matches the ignored pattern docker*",
    );
  });

  it("keep VPN tunnels (tun*, wg*) unless an administrator adds them", () => {
    const reported = [guest("wg0", "10.99.0.2"), guest("tun0", "10.98.0.2")];
    expect(verdicts(reported)).toEqual({ "10.99.0.2": "accepted", "10.98.0.2": "accepted" });
    const stricter = withRules({
      ignoredInterfaces: [...DEFAULT_ADDRESS_RULES.ignoredInterfaces, "wg*"],
    });
    expect(verdicts(reported, stricter)["10.99.0.2"]).toBe("IGNORED_INTERFACE");
  });

  it("match interface patterns whole and without regard to case", () => {
    const rules = withRules({ ignoredInterfaces: ["docker*", "eth?"] });
    expect(verdicts([guest("Docker0", "10.0.0.1"), guest("mydocker0", "10.0.0.2")], rules)).toEqual(
      {
        "10.0.0.1": "IGNORED_INTERFACE",
        "10.0.0.2": "accepted",
      },
    );
    expect(verdicts([guest("eth1", "10.0.0.3"), guest("eth10", "10.0.0.4")], rules)).toEqual({
      "10.0.0.3": "IGNORED_INTERFACE",
      "10.0.0.4": "accepted",
    });
  });

  it("drop loopback always and link-local by default, scoped addresses included", () => {
    const reported = [
      guest("lo", "127.0.0.1", { mac: "00:00:00:00:00:00" }),
      guest("eth0", "127.0.1.1"),
      guest("eth0", "::1"),
      guest("eth0", "169.254.10.1"),
      guest("eth0", "fe80::be24:11ff:fe89:6707"),
      guest("eth0", "fd00::5%eth0"),
      guest("eth0", "10.0.0.5"),
    ];
    expect(verdicts(reported)).toEqual({
      "127.0.0.1": "LOOPBACK",
      "127.0.1.1": "LOOPBACK",
      "::1": "LOOPBACK",
      "169.254.10.1": "LINK_LOCAL",
      "fe80::be24:11ff:fe89:6707": "LINK_LOCAL",
      "fd00::5%eth0": "LINK_LOCAL",
      "10.0.0.5": "accepted",
    });
    const keep = withRules({ dropLinkLocal: false, ignoredInterfaces: [] });
    expect(verdicts(reported, keep)).toMatchObject({
      "127.0.0.1": "LOOPBACK",
      "169.254.10.1": "accepted",
      "fe80::be24:11ff:fe89:6707": "accepted",
    });
  });

  it("drop addresses of interfaces whose MAC is on none of the VM's NICs, and say which", () => {
    const { ips } = applyAddressRules(
      [
        guest("ens19", "10.0.0.9", { mac: "02:42:ac:11:00:01" }),
        guest("ens20", "10.0.0.10", { mac: undefined }),
      ],
      nics,
      withRules(),
    );
    expect(ips.map((ip) => [ip.rejectRule, ip.rejectReason])).toEqual([
      ["UNMATCHED_MAC", "ens19: MAC 02:42:ac:11:00:01 is not a NIC of this VM"],
      [
        "UNMATCHED_MAC",
        "ens20: reports no MAC address, so it cannot be matched to a NIC of this VM",
      ],
    ]);
  });

  it("tie an accepted address to the NIC whose MAC it came on, whatever the MAC's case", () => {
    const { ips } = applyAddressRules(
      [guest("eth1", "10.0.1.5", { mac: "BC-24-11-00-00-02" })],
      nics,
      withRules(),
    );
    expect(ips[0]).toMatchObject({ isAccepted: true, nicKey: "net1" });
  });

  it("refuse what is not an address, with the text kept", () => {
    const { ips } = applyAddressRules([guest("eth0", "10.0.0.300")], nics, withRules());
    expect(ips[0]).toMatchObject({
      isAccepted: false,
      rejectRule: "INVALID_ADDRESS",
      rejectReason: "eth0: 10.0.0.300 is not an IPv4 or IPv6 address",
    });
  });
});

describe("a source that names the backing NIC (VMware Tools)", () => {
  const tools = (extra: Partial<ReportedAddress>) =>
    guest("", "10.0.0.5", { interfaceName: undefined, ...extra });

  it("accepts only when the named device is a NIC and its MAC matches", () => {
    const cases: [Partial<ReportedAddress>, string][] = [
      [{ nicKey: "net0" }, "accepted"],
      [
        { nicKey: "net9" },
        "interface with MAC bc:24:11:89:67:07: device net9 is not a NIC of this VM",
      ],
      [
        { nicKey: "net1" },
        "interface with MAC bc:24:11:89:67:07: MAC is not the one of NIC net1 (bc:24:11:00:00:02)",
      ],
      [
        { nicKey: "net0", mac: undefined },
        "interface without a MAC: reports no MAC address, so it cannot be matched to NIC net0",
      ],
      [
        { isUnbacked: true },
        "interface with MAC bc:24:11:89:67:07: not backed by a virtual NIC of this VM (a guest-internal interface such as docker0)",
      ],
    ];
    for (const [extra, expected] of cases) {
      const [ip] = applyAddressRules([tools(extra)], nics, withRules()).ips;
      expect(ip?.isAccepted ? "accepted" : ip?.rejectReason, JSON.stringify(extra)).toBe(expected);
    }
  });
});

describe("options", () => {
  it("keeps addresses of unmatched interfaces when asked, still under the other rules", () => {
    const rules = withRules({ keepUnmatchedMac: true });
    const reported = [
      guest("ens19", "10.0.0.9", { mac: "02:42:ac:11:00:01" }),
      guest("ens20", "fe80::1", { mac: "02:42:ac:11:00:01" }),
      guest("docker0", "172.17.0.1", { mac: "02:42:ac:11:00:01" }),
    ];
    expect(verdicts(reported, rules)).toEqual({
      "10.0.0.9": "accepted",
      "fe80::1": "LINK_LOCAL",
      "172.17.0.1": "IGNORED_INTERFACE",
    });
    expect(applyAddressRules(reported, nics, rules).ips[0]?.nicKey).toBeUndefined();
  });

  it("ignores subnets, IPv4 and IPv6, for configured and reported addresses alike", () => {
    const rules = withRules({ ignoredSubnets: ["10.255.0.0/16", "fd00:dead::/32"] });
    const reported = [
      guest("eth0", "10.255.3.4"),
      configured("net1", "10.255.9.9"),
      guest("eth0", "fd00:dead:1::5"),
      guest("eth0", "10.254.0.1"),
    ];
    expect(verdicts(reported, rules)).toEqual({
      "10.255.3.4": "IGNORED_SUBNET",
      "10.255.9.9": "IGNORED_SUBNET",
      "fd00:dead:1::5": "IGNORED_SUBNET",
      "10.254.0.1": "accepted",
    });
    const [, config] = applyAddressRules(reported, nics, rules).ips;
    expect(config).toMatchObject({
      nicKey: "net1",
      rejectReason: "NIC net1: in ignored subnet 10.255.0.0/16",
    });
  });

  it("keeps only permitted subnets when some are listed; an ignored subnet inside one still loses", () => {
    const rules = withRules({
      permittedSubnets: ["10.0.0.0/8", "2001:db8::/32"],
      ignoredSubnets: ["10.9.0.0/16"],
    });
    const reported = [
      guest("eth0", "10.1.2.3"),
      guest("eth0", "192.168.1.5"),
      guest("eth0", "2001:db8::5"),
      guest("eth0", "2001:db9::5"),
      guest("eth0", "10.9.0.1"),
    ];
    expect(verdicts(reported, rules)).toEqual({
      "10.1.2.3": "accepted",
      "192.168.1.5": "NOT_PERMITTED_SUBNET",
      "2001:db8::5": "accepted",
      "2001:db9::5": "NOT_PERMITTED_SUBNET",
      "10.9.0.1": "IGNORED_SUBNET",
    });
    expect(
      applyAddressRules([guest("eth0", "192.168.1.5")], nics, rules).ips[0]?.rejectReason,
    ).toBe("eth0: outside the permitted subnets (10.0.0.0/8, 2001:db8::/32)");
  });

  it("trusts a configured address's NIC without a MAC check", () => {
    const { ips } = applyAddressRules([configured("net9", "10.0.0.5")], nics, withRules());
    expect(ips[0]).toMatchObject({ isAccepted: true, nicKey: "net9", origin: "STATIC_CONFIG" });
  });
});

describe("the primary address", () => {
  const reported = [
    guest("eth0", "2001:db8::10"),
    guest("eth0", "192.168.5.10"),
    configured("net1", "10.20.0.5"),
    guest("eth1", "10.30.0.5", { mac: "bc:24:11:00:00:02" }),
    guest("docker0", "172.17.0.1"),
  ];
  const primary = (rules = withRules()) => applyAddressRules(reported, nics, rules).primaryAddress;

  it("is by default the first configured IPv4 address", () => {
    expect(primary()).toBe("10.20.0.5");
  });

  it("follows the family and origin preferences", () => {
    expect(primary(withRules({}, { origin: "GUEST_FIRST" }))).toBe("192.168.5.10");
    expect(primary(withRules({}, { family: "IPV6_FIRST" }))).toBe("2001:db8::10");
  });

  it("takes the first preferred subnet that holds an address, before family and origin", () => {
    expect(primary(withRules({}, { preferredSubnets: ["10.30.0.0/16", "192.168.0.0/16"] }))).toBe(
      "10.30.0.5",
    );
    expect(primary(withRules({}, { preferredSubnets: ["172.31.0.0/16", "192.168.0.0/16"] }))).toBe(
      "192.168.5.10",
    );
  });

  it("is never a rejected address, and absent when none is accepted", () => {
    expect(primary(withRules({}, { preferredSubnets: ["172.17.0.0/16"] }))).toBe("10.20.0.5");
    expect(
      applyAddressRules([guest("docker0", "172.17.0.1")], nics, withRules()).primaryAddress,
    ).toBeUndefined();
  });
});
