// Where address rules are kept (docs/behaviour.md §10.9): the global rules in the AppSetting table,
// a connection's own in its addressRules column (null: the global rules apply), and the shipped
// defaults while nobody has set any. Stored rules were checked when saved; anything that no longer
// reads as rules is a defect, reported loudly rather than silently replaced by the defaults.
import type { Prisma, PrismaClient } from "@hyperlens/db";
import {
  type AddressRules,
  addressRuleProblems,
  DEFAULT_ADDRESS_RULES,
  PRIMARY_FAMILIES,
  PRIMARY_ORIGINS,
} from "@hyperlens/shared";

/** The AppSetting key of the global rules. */
export const GLOBAL_ADDRESS_RULES_KEY = "inventory.addressRules";

type Reader = PrismaClient | Prisma.TransactionClient;

/** The rules a connection's guests are judged by, and whether they are the global ones. */
export interface EffectiveAddressRules {
  rules: AddressRules;
  isInherited: boolean;
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === "string");

/** Reads stored JSON as rules; throws, naming where it was stored, when it is not. */
export function storedAddressRules(value: unknown, where: string): AddressRules {
  const v = value as Partial<AddressRules> | null;
  const primary = v?.primary as Partial<AddressRules["primary"]> | undefined;
  const isRules =
    typeof v === "object" &&
    v !== null &&
    isStringList(v.ignoredInterfaces) &&
    isStringList(v.permittedSubnets) &&
    isStringList(v.ignoredSubnets) &&
    typeof v.dropLinkLocal === "boolean" &&
    typeof v.keepUnmatchedMac === "boolean" &&
    isStringList(primary?.preferredSubnets) &&
    PRIMARY_FAMILIES.includes(primary?.family as never) &&
    PRIMARY_ORIGINS.includes(primary?.origin as never);
  const rules = v as AddressRules;
  const problems = isRules ? addressRuleProblems(rules) : [];
  if (!isRules || problems.length) {
    throw new Error(`The address rules stored in ${where} cannot be read; save them again`);
  }
  return rules;
}

/** The global rules: as saved, or the shipped ones. */
export async function readGlobalAddressRules(prisma: Reader): Promise<AddressRules> {
  const row = await prisma.appSetting.findUnique({ where: { key: GLOBAL_ADDRESS_RULES_KEY } });
  return row ? storedAddressRules(row.value, "the global settings") : DEFAULT_ADDRESS_RULES;
}

/** The rules that apply to one connection's guests. */
export async function readEffectiveAddressRules(
  prisma: Reader,
  connectionId: string,
): Promise<EffectiveAddressRules> {
  const connection = await prisma.connection.findUniqueOrThrow({
    where: { id: connectionId },
    select: { addressRules: true, name: true },
  });
  if (connection.addressRules === null) {
    return { rules: await readGlobalAddressRules(prisma), isInherited: true };
  }
  return {
    rules: storedAddressRules(connection.addressRules, `connection ${connection.name}`),
    isInherited: false,
  };
}
