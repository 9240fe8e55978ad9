// A closed list of names (the connection kinds, a sync's triggers and outcomes, power states, …)
// is written out once, in this package, and imported everywhere else: a copy restated in another
// file drifts the day a value is added to one of them.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  CONFIRMATIONS,
  CONNECTION_KINDS,
  GUEST_KINDS,
  GUEST_REPORT_CODES,
  GUEST_VALUE_FIELDS,
  IP_ORIGINS,
  NAMED_LOCATION_FIELDS,
  POWER_STATES,
  SYNC_OUTCOMES,
  SYNC_TRIGGERS,
  VM_EVENT_TYPES,
} from "./index.ts";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const HOME = "packages/shared/src/";

/** Every TypeScript source file of the workspace's packages and apps, tests and generated code aside. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "generated" || entry.name === "dist")
        continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(path);
    }
  };
  for (const group of ["apps", "packages"]) {
    for (const entry of readdirSync(join(ROOT, group), { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(ROOT, group, entry.name, "src"));
    }
  }
  return files;
}

/** Matches the whole list written out in order, as a union (`"A" | "B"`) or an array (`"A", "B"`). */
function restatement(values: readonly string[]): RegExp {
  return new RegExp(values.map((v) => `"${v}"`).join(String.raw`\s*[|,]\s*`));
}

const LISTS = {
  CONNECTION_KINDS,
  SYNC_TRIGGERS,
  SYNC_OUTCOMES,
  POWER_STATES,
  IP_ORIGINS,
  GUEST_KINDS,
  CONFIRMATIONS,
  NAMED_LOCATION_FIELDS,
  VM_EVENT_TYPES,
  GUEST_VALUE_FIELDS,
  GUEST_REPORT_CODES,
};

describe("closed lists of names", () => {
  const files = sourceFiles().map((path) => ({
    path: relative(ROOT, path),
    text: readFileSync(path, "utf8"),
  }));

  it("finds the workspace's sources", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  for (const [name, values] of Object.entries(LISTS)) {
    it(`${name} is written out only in packages/shared`, () => {
      const pattern = restatement(values);
      const copies = files
        .filter((f) => !f.path.startsWith(HOME) && pattern.test(f.text))
        .map((f) => f.path);
      expect(copies).toEqual([]);
    });
  }
});
