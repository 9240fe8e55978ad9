// Where address rules are kept (docs/behaviour.md §10.9): the global rules in the AppSetting table,
// a connection's own in its addressRules column (null: the global rules apply), and the shipped
// rules while nobody has set any. Stored rules were checked when saved; anything that no longer
// reads as rules is a defect, reported loudly rather than silently replaced by the shipped ones.
// Raw SQL, so a sync's write transaction reads them under the same lock as it writes.
import type { RawSql } from "@hyperlens/db";
import {
  type AddressRules,
  addressRuleProblems,
  type CompiledAddressRules,
  compileAddressRules,
  DEFAULT_ADDRESS_RULES,
  PRIMARY_FAMILIES,
  PRIMARY_ORIGINS,
} from "@hyperlens/shared";

/** The AppSetting key of the global rules. */
export const GLOBAL_ADDRESS_RULES_KEY = "inventory.addressRules";

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

/** The saved global rules, or null while nobody has saved any. */
export async function readSavedGlobalAddressRules(db: RawSql): Promise<AddressRules | null> {
  const rows = await db.$queryRawUnsafe<{ value: unknown }[]>(
    `SELECT "value" FROM app_settings WHERE "key" = $1`,
    GLOBAL_ADDRESS_RULES_KEY,
  );
  return rows[0] ? storedAddressRules(rows[0].value, "the global settings") : null;
}

/** The global rules: as saved, or the shipped ones. */
export async function readGlobalAddressRules(db: RawSql): Promise<AddressRules> {
  return (await readSavedGlobalAddressRules(db)) ?? DEFAULT_ADDRESS_RULES;
}

/**
 * The rules that apply to one connection's guests. `lock` takes a share lock on the connection
 * row until the transaction ends: a rules change (which takes it exclusively) then waits for the
 * sync's write, or the write waits for the change, and never judges by rules already replaced.
 */
export async function readEffectiveAddressRules(
  db: RawSql,
  connectionId: string,
  lock: "none" | "share" = "none",
): Promise<EffectiveAddressRules> {
  const rows = await db.$queryRawUnsafe<{ addressRules: unknown; name: string }[]>(
    `SELECT "addressRules", "name" FROM connections WHERE "id" = $1::uuid${lock === "share" ? " FOR SHARE" : ""}`,
    connectionId,
  );
  const connection = rows[0];
  if (!connection) throw new Error(`connection ${connectionId} does not exist`);
  if (connection.addressRules === null) {
    return { rules: await readGlobalAddressRules(db), isInherited: true };
  }
  return {
    rules: storedAddressRules(connection.addressRules, `connection ${connection.name}`),
    isInherited: false,
  };
}

const compiled = new Map<string, CompiledAddressRules>();

/** Compiled rules, memoised by their JSON: a sync compiles its rules once, not per chunk. */
export function compiledAddressRules(rules: AddressRules): CompiledAddressRules {
  const key = JSON.stringify(rules);
  let entry = compiled.get(key);
  if (!entry) {
    if (compiled.size > 100) compiled.clear();
    entry = compileAddressRules(rules);
    compiled.set(key, entry);
  }
  return entry;
}
