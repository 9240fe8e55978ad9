// Where each field of the neutral record comes from, per source: declared beside each adapter's
// mapping and rendered into docs/inventory.md, which a test keeps equal to these declarations and
// complete against what the adapters really produce, as the sync stores it (docs/behaviour.md §6).
import { withShippedJudgement } from "./address-rules/reported.ts";
import type { NeutralVm } from "./inventory.ts";

/** One field of a source's guests. */
export interface FieldSource {
  /** Path in the neutral record: "cpuCount", "location.nodeName", "nics[].mac". */
  field: string;
  /** The API call and attribute it is read from, and how it is turned into the field. */
  from: string;
  /** What leaves it empty; absent when the source always fills it. */
  missingWhen?: string;
  /** The source never fills it (missingWhen says why); a record that has it is a defect here. */
  isNeverFilled?: true;
}

/** The neutral record's fields that describe how a record was read rather than the guest. */
const BOOKKEEPING_FIELDS = new Set(["ipsFromGuestAreLive", "details"]);
/** Lists documented as one field: the addresses, whose entries the address rules explain (§10.9). */
const WHOLE_LISTS = new Set(["ips", "reportedAddresses"]);

/**
 * The paths of the fields a record has a value in: top-level fields, `location.*`, `backing.*`,
 * one path per field of `nics[]` and `disks[]` entries, and `ips` and `reportedAddresses` whole.
 */
export function filledFieldPaths(vm: NeutralVm): string[] {
  const paths = new Set<string>();
  for (const [key, value] of Object.entries(vm)) {
    if (BOOKKEEPING_FIELDS.has(key) || value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      if (typeof value[0] !== "object" || WHOLE_LISTS.has(key)) {
        paths.add(key);
        continue;
      }
      for (const item of value) {
        if (typeof item !== "object" || item === null) continue;
        for (const [field, fieldValue] of Object.entries(item)) {
          if (fieldValue !== undefined) paths.add(`${key}[].${field}`);
        }
      }
    } else if (typeof value === "object" && value !== null) {
      for (const [field, fieldValue] of Object.entries(value)) {
        if (fieldValue !== undefined) paths.add(`${key}.${field}`);
      }
    } else {
      paths.add(key);
    }
  }
  return [...paths].sort();
}

/** A source's fields as a Markdown table: field, where it comes from, what leaves it empty. */
export function fieldSourceTable(sources: readonly FieldSource[]): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  const rows = sources.map(
    (s) => `| \`${s.field}\` | ${cell(s.from)} | ${cell(s.missingWhen ?? "always filled")} |`,
  );
  return ["| Field | Comes from | Missing when |", "| --- | --- | --- |", ...rows].join("\n");
}

/**
 * The fields a source's guests have, once the sync has judged their reports (`ips`,
 * `primaryAddress`), that its declarations do not explain, and declared ones never filled.
 */
export function fieldSourceGaps(
  sources: readonly FieldSource[],
  vms: readonly NeutralVm[],
): { undeclared: string[]; neverFilled: string[] } {
  const declared = new Set(sources.filter((s) => !s.isNeverFilled).map((s) => s.field));
  const filled = new Set(vms.map(withShippedJudgement).flatMap(filledFieldPaths));
  return {
    undeclared: [...filled].filter((field) => !declared.has(field)).sort(),
    neverFilled: sources
      .filter((s) => !s.isNeverFilled && !filled.has(s.field))
      .map((s) => s.field)
      .sort(),
  };
}

/**
 * The fields every source fills the same way from its `reportedAddresses`: what the address rules
 * (docs/behaviour.md §10.9) make of them.
 */
export function addressRuleFieldSources(missingWhen: string): FieldSource[] {
  return [
    {
      field: "ips",
      from: "`reportedAddresses` judged by the connection's address rules (docs/behaviour.md §10.9): each kept, or rejected with its rule and reason",
      missingWhen,
    },
    {
      field: "primaryAddress",
      from: "the accepted address the primary-address rule picks (docs/behaviour.md §10.9)",
      missingWhen: "no address was accepted",
    },
  ];
}
