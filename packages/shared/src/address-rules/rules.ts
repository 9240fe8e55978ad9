// The address rules an administrator sets, globally and per connection (docs/behaviour.md
// §10.9): which reported addresses count as the guest's and which one is its primary.
import { parseSubnet, type Subnet } from "./ip-math.ts";

/** Which address family the primary address is taken from first. */
export const PRIMARY_FAMILIES = ["IPV4_FIRST", "IPV6_FIRST"] as const;
export type PrimaryFamily = (typeof PRIMARY_FAMILIES)[number];

/**
 * Which kind of address is preferred as primary: one the hypervisor's configuration declares
 * (static config, Director's allocation, DHCP reservation), or one the guest itself reports.
 */
export const PRIMARY_ORIGINS = ["CONFIG_FIRST", "GUEST_FIRST"] as const;
export type PrimaryOrigin = (typeof PRIMARY_ORIGINS)[number];

/** The rules, as stored and as the API takes them. */
export interface AddressRules {
  /** Interface name patterns whose addresses are not the guest's; `*` any run, `?` one character. */
  ignoredInterfaces: string[];
  /** When not empty, only addresses inside one of these subnets count. */
  permittedSubnets: string[];
  /** Addresses inside these subnets never count. */
  ignoredSubnets: string[];
  /** Drop link-local addresses (169.254.0.0/16, fe80::/10, scoped `%zone` addresses). */
  dropLinkLocal: boolean;
  /** Keep addresses of guest interfaces whose MAC is on none of the VM's NICs. */
  keepUnmatchedMac: boolean;
  primary: {
    /** Subnets in order of preference; an address in the first listed wins. */
    preferredSubnets: string[];
    family: PrimaryFamily;
    origin: PrimaryOrigin;
  };
}

/** A shipped interface pattern, whether it is on by default, and why. */
export interface SuggestedInterfacePattern {
  pattern: string;
  isDefault: boolean;
  why: string;
}

/** The interface patterns the rule editor offers; those marked isDefault are the shipped rules. */
export const SUGGESTED_INTERFACE_PATTERNS: readonly SuggestedInterfacePattern[] = [
  {
    pattern: "lo",
    isDefault: true,
    why: "the loopback interface reaches nothing outside the guest",
  },
  {
    pattern: "docker*",
    isDefault: true,
    why: "Docker's default bridge; its 172.17.0.1 is on every Docker host",
  },
  {
    pattern: "br-*",
    isDefault: true,
    why: "Docker's user-defined networks, private to the host",
  },
  { pattern: "veth*", isDefault: true, why: "one end of a container's virtual cable" },
  { pattern: "cali*", isDefault: true, why: "Calico's per-pod interfaces in Kubernetes" },
  { pattern: "flannel*", isDefault: true, why: "Flannel's overlay network in Kubernetes" },
  { pattern: "cni*", isDefault: true, why: "the Kubernetes CNI bridge for pods" },
  { pattern: "virbr*", isDefault: true, why: "libvirt's NAT bridge for nested guests" },
  {
    pattern: "tun*",
    isDefault: false,
    why: "VPN tunnels: off by default, since a VPN address can be how the guest is reached",
  },
  {
    pattern: "wg*",
    isDefault: false,
    why: "WireGuard tunnels: off by default, since a tunnel address can be how the guest is reached",
  },
];

/** The shipped rules: what Hyperlens did before rules could be set, plus the common overlay names. */
export const DEFAULT_ADDRESS_RULES: AddressRules = {
  ignoredInterfaces: SUGGESTED_INTERFACE_PATTERNS.filter((p) => p.isDefault).map((p) => p.pattern),
  permittedSubnets: [],
  ignoredSubnets: [],
  dropLinkLocal: true,
  keepUnmatchedMac: false,
  primary: { preferredSubnets: [], family: "IPV4_FIRST", origin: "CONFIG_FIRST" },
};

/** Most entries one list may hold: rules are for patterns, not for listing every address. */
export const MAX_RULE_ENTRIES = 100;
const MAX_PATTERN_LENGTH = 64;

/** The rules with their subnets parsed, as the rules stage applies them. */
export interface CompiledAddressRules {
  rules: AddressRules;
  ignoredInterfaces: { pattern: string; regex: RegExp }[];
  permittedSubnets: Subnet[];
  ignoredSubnets: Subnet[];
  preferredSubnets: Subnet[];
}

/** One problem with submitted rules: the field (dotted path) and what is wrong. */
export interface AddressRuleProblem {
  field: string;
  message: string;
}

function patternRegex(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "i");
}

function checkList(
  field: string,
  values: readonly string[],
  problems: AddressRuleProblem[],
  checkOne: (value: string) => string | undefined,
): void {
  if (values.length > MAX_RULE_ENTRIES) {
    problems.push({ field, message: `at most ${MAX_RULE_ENTRIES} entries` });
    return;
  }
  const seen = new Set<string>();
  for (const [i, value] of values.entries()) {
    const problem = seen.has(value) ? `${value} is listed twice` : checkOne(value);
    if (problem) problems.push({ field: `${field}.${i}`, message: problem });
    seen.add(value);
  }
}

function patternProblem(pattern: string): string | undefined {
  if (pattern.trim() === "") return "an interface pattern cannot be empty";
  if (pattern !== pattern.trim()) return `"${pattern}" starts or ends with a space`;
  if (pattern.length > MAX_PATTERN_LENGTH) return `at most ${MAX_PATTERN_LENGTH} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(pattern)) return "control characters are not allowed";
  if (/^\*+$/.test(pattern)) return `"${pattern}" would ignore every interface`;
  return undefined;
}

function subnetProblem(text: string): string | undefined {
  const parsed = parseSubnet(text);
  return "error" in parsed ? parsed.error : undefined;
}

/** Every problem with the rules, each on its field; empty when they can be saved. */
export function addressRuleProblems(rules: AddressRules): AddressRuleProblem[] {
  const problems: AddressRuleProblem[] = [];
  checkList("ignoredInterfaces", rules.ignoredInterfaces, problems, patternProblem);
  checkList("permittedSubnets", rules.permittedSubnets, problems, subnetProblem);
  checkList("ignoredSubnets", rules.ignoredSubnets, problems, subnetProblem);
  checkList("primary.preferredSubnets", rules.primary.preferredSubnets, problems, subnetProblem);
  return problems;
}

function subnets(texts: readonly string[]): Subnet[] {
  return texts.flatMap((text) => {
    const parsed = parseSubnet(text);
    return "error" in parsed ? [] : [parsed];
  });
}

/**
 * Compiles rules for the rules stage. Throws on rules with problems: rules are checked with
 * addressRuleProblems before they are stored, so a stored rule that fails here is a defect.
 */
export function compileAddressRules(rules: AddressRules): CompiledAddressRules {
  const problems = addressRuleProblems(rules);
  if (problems.length) {
    const first = problems[0] as AddressRuleProblem;
    throw new Error(`invalid address rules: ${first.field}: ${first.message}`);
  }
  return {
    rules,
    ignoredInterfaces: rules.ignoredInterfaces.map((pattern) => ({
      pattern,
      regex: patternRegex(pattern),
    })),
    permittedSubnets: subnets(rules.permittedSubnets),
    ignoredSubnets: subnets(rules.ignoredSubnets),
    preferredSubnets: subnets(rules.primary.preferredSubnets),
  };
}
