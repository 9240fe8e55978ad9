// Docs reviewed against the code: every configuration variable is documented in
// docs/operations.md and README's table, and every variable the docs name exists.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES } from "./config.ts";
import { createMetrics } from "./metrics/metrics.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** Outside the validated configuration on purpose, and documented in docs/operations.md. */
const PACKAGING_VARIABLES = ["HYPERLENS_WEB_DIR", "HYPERLENS_MIGRATIONS_DIR", "HYPERLENS_SITE"];

/** Not read by the server: compose interpolation, an integrator's shell, test knobs. */
const OTHER_VARIABLES = [
  "HYPERLENS_VERSION",
  "HYPERLENS_TOKEN",
  "HYPERLENS_PROPERTY_RUNS",
  "HYPERLENS_PROPERTY_E2E_RUNS",
  "HYPERLENS_PROPERTY_SEED",
  "HYPERLENS_PROPERTY_PATH",
];

const VARIABLE = /\b(?:HYPERLENS_[A-Z0-9_]+|DATABASE_URL|REDIS_URL|NODE_ENV)\b/g;
const named = (text: string) => new Set(text.match(VARIABLE) ?? []);

/** First-column names of the markdown table that follows a heading. */
function tableVariables(text: string, heading: string): string[] {
  const section = text.slice(text.indexOf(heading));
  const lines = section.split("\n").slice(1);
  const start = lines.findIndex((line) => line.startsWith("|"));
  const rows = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith("|")) break;
    const first = /^\|\s*`([A-Z0-9_]+)`/.exec(line)?.[1];
    if (first) rows.push(first);
  }
  return rows;
}

describe("the docs and the configuration schema agree", () => {
  const operations = read("docs/operations.md");
  const readme = read("README.md");

  it("docs/operations.md's reference table lists every configuration variable", () => {
    const table = tableVariables(operations, "## Configuration reference");
    expect([...table].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it("README's configuration table lists every configuration variable", () => {
    const table = tableVariables(readme, "## Configuration");
    expect([...table].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it("every variable the docs name is in the schema or is a known packaging variable", () => {
    const known = new Set([...CONFIG_VARIABLES, ...PACKAGING_VARIABLES, ...OTHER_VARIABLES]);
    const docs = ["README.md", ...readdirSync(path.join(root, "docs")).map((f) => `docs/${f}`)];
    for (const file of docs) {
      for (const name of named(read(file))) expect(known.has(name), `${file}: ${name}`).toBe(true);
    }
  });

  it("every packaging variable is documented in docs/operations.md", () => {
    const documented = named(operations);
    for (const name of PACKAGING_VARIABLES) {
      expect(documented.has(name), name).toBe(true);
    }
  });

  it("docs/operations.md describes every metric the server exports", async () => {
    const text = await createMetrics({ withProcessMetrics: false }).registry.metrics();
    const names = new Set(text.match(/^# HELP (hyperlens_\w+)/gm)?.map((l) => l.slice(7)) ?? []);
    expect(names.size).toBeGreaterThan(0);
    for (const name of names) expect(operations, name).toContain(`\`${name}\``);
  });
});
