// Docs reviewed against the code: every configuration variable is documented in
// docs/operations.md and README's table, every variable the docs name exists, and every variable
// the server's source reads is documented (and every documented direct read really happens).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES } from "./config.ts";
import { createMetrics } from "./metrics/metrics.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/**
 * Read directly (process.env) outside the validated configuration on purpose, and documented in
 * docs/operations.md.
 */
const PACKAGING_VARIABLES = ["HYPERLENS_WEB_DIR", "HYPERLENS_MIGRATIONS_DIR"];

/** Read directly by the command line only (a client's setting), documented in docs/operations.md. */
const CLI_VARIABLES = ["HYPERLENS_TOKEN", "HYPERLENS_URL", "HYPERLENS_INVENTORY_QUERY"];

/** Not read by the server: compose interpolation, an integrator's shell, test knobs. */
const OTHER_VARIABLES = [
  "HYPERLENS_SITE",
  "HYPERLENS_VERSION",
  "HYPERLENS_REVISION",
  "HYPERLENS_PROPERTY_RUNS",
  "HYPERLENS_PROPERTY_E2E_RUNS",
  "HYPERLENS_PROPERTY_SEED",
  "HYPERLENS_PROPERTY_PATH",
  "HYPERLENS_FUZZ_RUNS",
  "HYPERLENS_CRASH_KILLS",
  "HYPERLENS_CRASH_SEED",
];

const VARIABLE =
  /\b(?:HYPERLENS_[A-Z0-9_]+|OTEL_[A-Z0-9_]*[A-Z0-9]|DATABASE_URL|REDIS_URL|NODE_ENV)\b/g;
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
    const known = new Set([
      ...CONFIG_VARIABLES,
      ...PACKAGING_VARIABLES,
      ...CLI_VARIABLES,
      ...OTHER_VARIABLES,
    ]);
    const docs = ["README.md", ...readdirSync(path.join(root, "docs")).map((f) => `docs/${f}`)];
    for (const file of docs) {
      for (const name of named(read(file))) expect(known.has(name), `${file}: ${name}`).toBe(true);
    }
  });

  it("every packaging variable is documented in docs/operations.md", () => {
    const documented = named(operations);
    for (const name of [...PACKAGING_VARIABLES, ...CLI_VARIABLES]) {
      expect(documented.has(name), name).toBe(true);
    }
  });

  it("turbo passes every configuration variable through to `npm run dev`", () => {
    // Turbo's strict environment mode hides from its tasks every variable turbo.json does not name.
    const patterns: string[] = JSON.parse(read("turbo.json")).globalEnv;
    const passes = (name: string) =>
      patterns.some((pattern) =>
        pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
      );
    for (const name of [...CONFIG_VARIABLES, ...PACKAGING_VARIABLES])
      expect(passes(name), `turbo.json globalEnv lacks ${name}`).toBe(true);
  });

  it("docs/operations.md describes every metric the server exports", async () => {
    const text = await createMetrics({ withProcessMetrics: false }).registry.metrics();
    const names = new Set(text.match(/^# HELP (hyperlens_\w+)/gm)?.map((l) => l.slice(7)) ?? []);
    expect(names.size).toBeGreaterThan(0);
    for (const name of names) expect(operations, name).toContain(`\`${name}\``);
  });
});

/** Source the server and its packages run: no tests, test helpers, benchmarks or generated code. */
const NOT_SERVER_CODE = /(\.test\.ts$|(^|\/)bench\.ts$|\/(testing|generated|bench|e2e|scripts)\/)/;

function serverSources(): string[] {
  const roots = [
    "apps/api/src",
    ...readdirSync(path.join(root, "packages")).map((name) => `packages/${name}/src`),
  ];
  return roots
    .filter((dir) => existsSync(path.join(root, dir)))
    .flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" }).map(
        (file) => `${dir}/${file}`,
      ),
    )
    .filter((file) => file.endsWith(".ts") && !NOT_SERVER_CODE.test(file));
}

const IDENTIFIER = "[A-Za-z_$][\\w$]*";

/**
 * The environment variables a source text reads: `process.env.X`, `process.env["X"]`,
 * `const { X, Y: y = 1 } = process.env`, and the same through `const env = process.env`. A read
 * whose name is computed is returned as `[computed]`, since no list can vouch for it.
 */
function envReads(text: string): string[] {
  const found: string[] = [];
  const aliases = [
    ...text.matchAll(
      new RegExp(`(?:const|let|var)\\s+(${IDENTIFIER})\\s*=\\s*process\\.env\\s*[;\\n]`, "g"),
    ),
  ].map((match) => match[1] as string);
  for (const source of ["process\\.env", ...aliases.map((alias) => `(?<![\\w$.])${alias}`)]) {
    for (const match of text.matchAll(new RegExp(`${source}\\??\\.(${IDENTIFIER})`, "g"))) {
      found.push(match[1] as string);
    }
    for (const match of text.matchAll(new RegExp(`${source}\\[\\s*([^\\]]*?)\\s*\\]`, "g"))) {
      const literal = /^(["'`])([^"'`$]+)\1$/.exec(match[1] as string);
      found.push(literal ? (literal[2] as string) : "[computed]");
    }
    for (const match of text.matchAll(
      new RegExp(`\\{([^{}]*)\\}\\s*=\\s*${source}\\b(?!\\.|\\[)`, "g"),
    )) {
      for (const part of (match[1] as string).split(",")) {
        // A rest element takes every variable: as unknowable as a computed name.
        const name = /^\s*(\.\.\.)?([A-Za-z_$][\w$]*)/.exec(part);
        if (name) found.push(name[1] ? "[computed]" : (name[2] as string));
      }
    }
  }
  return found;
}

describe("the environment variables the source reads are the documented ones", () => {
  it("finds every form of read", () => {
    const sample = [
      "const port = process.env.PORT_A ?? process.env?.PORT_B;",
      'const dir = process.env["DIR_C"] ?? process.env[`DIR_D`];',
      "const { NAME_E, NAME_F: f = 1, ...rest } = process.env;",
      "const env = process.env;",
      'const g = env.NAME_G ?? env["NAME_H"];',
      "const { NAME_I } = env;",
      "const dynamic = process.env[name];",
    ].join("\n");
    expect(envReads(sample).sort()).toEqual(
      [
        "DIR_C",
        "DIR_D",
        "NAME_E",
        "NAME_F",
        "NAME_G",
        "NAME_H",
        "NAME_I",
        "PORT_A",
        "PORT_B",
        "[computed]",
        "[computed]",
      ].sort(),
    );
  });

  const reads = new Map<string, string[]>();
  for (const file of serverSources()) {
    for (const name of envReads(read(file))) reads.set(name, [...(reads.get(name) ?? []), file]);
  }

  it("scans the server and its packages", () => {
    expect(serverSources()).toEqual(
      expect.arrayContaining(["apps/api/src/config.ts", "packages/db/src/migrate.ts"]),
    );
    expect(serverSources().some((file) => file.endsWith(".test.ts"))).toBe(false);
  });

  it("every variable read is in the configuration schema or a documented packaging variable", () => {
    const documented = new Set([...CONFIG_VARIABLES, ...PACKAGING_VARIABLES, ...CLI_VARIABLES]);
    const undocumented = [...reads].filter(([name]) => !documented.has(name));
    expect(
      undocumented.map(([name, files]) => `${name} (read in ${files.join(", ")})`),
      "document it in config.ts and docs/operations.md, or route it through loadConfig",
    ).toEqual([]);
  });

  it("every documented packaging or command-line variable is really read by the source", () => {
    expect([...PACKAGING_VARIABLES, ...CLI_VARIABLES].filter((name) => !reads.has(name))).toEqual(
      [],
    );
  });
});
