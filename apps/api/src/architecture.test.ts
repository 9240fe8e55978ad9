// docs/architecture.md's package table is the import rule of the monorepo, checked here: each
// package's shipped code (what its entry points reach) imports only what its row allows, every name
// in a row is really imported, and package.json's dependencies are exactly what the shipped code
// needs — a dependency nothing imports would still be installed in the image and read as a real
// edge by the next reader (packages/sync listed hyper-http and zod and imported neither).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const workspaceDirs = ["packages", "apps"].flatMap((group) =>
  readdirSync(path.join(root, group))
    .map((name) => `${group}/${name}`)
    .filter((dir) => existsSync(path.join(root, dir, "package.json"))),
);

interface Manifest {
  name: string;
  exports?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
const manifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"));

/** One row of the table: the package's folder, its README link and the import patterns it allows. */
interface Row {
  dir: string;
  readme: string;
  allowed: string[];
}

/** The rows of the table under "## Packages", with short workspace names made `@hyperlens/<name>`. */
function packageTable(): Row[] {
  const text = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const section = text.slice(text.indexOf("## Packages"));
  const lines = section.split("\n").filter((line) => line.startsWith("|"));
  const rows: Row[] = [];
  for (const line of lines.slice(2)) {
    const cells = line.split("|").map((cell) => cell.trim());
    const link = /^\[`([^`]+)`\]\(([^)]+)\)$/.exec(cells[1] ?? "");
    if (!link?.[1] || !link[2]) break; // the table ends where a row is not a package
    const allowed = [...(cells[3] ?? "").matchAll(/`([^`]+)`/g)].map(([, name = ""]) =>
      workspaceDirs.some((dir) => dir.endsWith(`/${name}`)) ? `@hyperlens/${name}` : name,
    );
    rows.push({ dir: link[1], readme: path.join("docs", link[2]), allowed });
  }
  return rows;
}

/** A module specifier reduced to what the table names: a package, or `node:x` for a built-in. */
function packageOf(specifier: string): string {
  const bare = specifier.replace(/^node:/, "");
  if (specifier.startsWith("node:") || builtinModules.includes(bare.split("/")[0] ?? "")) {
    return `node:${bare}`;
  }
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

const allows = (pattern: string, name: string) =>
  pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : pattern === name;

interface Import {
  specifier: string;
  typeOnly: boolean;
}

/** Every static, dynamic and re-export specifier of a file, marked when it is erased at build. */
function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const found: Import[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
      const bindings = clause?.namedBindings;
      const typeOnly = ts.isImportDeclaration(node)
        ? clause !== undefined &&
          (clause.isTypeOnly ||
            (!clause.name &&
              bindings !== undefined &&
              ts.isNamedImports(bindings) &&
              bindings.elements.every((element) => element.isTypeOnly)))
        : node.isTypeOnly;
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require")) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const CODE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;

/** The source file a relative specifier names, or undefined for JSON, CSS and the like. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(from), specifier);
  const candidates = [target, target.replace(/\.js$/, ".ts"), `${target}.ts`, `${target}.tsx`];
  return candidates.find((file) => CODE.test(file) && existsSync(file) && statSync(file).isFile());
}

/**
 * Where a package's shipped code starts: its non-test `exports`, the server's two bundle entries
 * (scripts/bundle-options.mjs) and the web app's script tags (index.html, GraphiQL's page).
 */
function entryPoints(dir: string): string[] {
  const base = path.join(root, dir);
  const exported = Object.entries(manifest(dir).exports ?? {})
    .filter(([subpath]) => !/test/.test(subpath))
    .map(([, target]) => target);
  const bundled =
    dir === "apps/api" ? readFileSync(path.join(base, "scripts/bundle-options.mjs"), "utf8") : "";
  const fromBuild = [...bundled.matchAll(/path\.join\(api, "(src\/[^"]+)"\)/g)].map(
    ([, file]) => file,
  );
  const pages = dir === "apps/web" ? ["index.html", "graphiql/index.html"] : [];
  const html = pages.map((page) => readFileSync(path.join(base, page), "utf8")).join("\n");
  const fromHtml = [...html.matchAll(/<script type="module" src="\/([^"]+)"/g)].map(
    ([, file]) => file,
  );
  return [...exported, ...fromBuild, ...fromHtml].map((file = "") => path.join(base, file));
}

/** A bare import in shipped code, with the file it was found in. */
interface Use {
  name: string;
  file: string;
  typeOnly: boolean;
}

/** The files reachable from the entry points by relative imports, and what they import. */
function shippedImports(dir: string): { files: string[]; uses: Use[] } {
  const base = path.join(root, dir);
  const queue = entryPoints(dir);
  const seen = new Set<string>();
  const uses: Use[] = [];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { specifier, typeOnly } of importsOf(file)) {
      const where = path.relative(root, file);
      if (!specifier.startsWith(".")) {
        uses.push({ name: packageOf(specifier), file: where, typeOnly });
        continue;
      }
      const target = resolveRelative(file, specifier);
      const other = workspaceDirs.find(
        (d) => d !== dir && target?.startsWith(path.join(root, d, "")),
      );
      // Reaching into another package by path would dodge the table: it counts as importing it.
      if (other) uses.push({ name: manifest(other).name, file: where, typeOnly });
      else if (target?.startsWith(base)) queue.push(target);
    }
  }
  return { files: [...seen], uses };
}

/** The package.json of a dependency as installed for `dir` (node_modules, nearest first). */
function installedManifest(dir: string, name: string): Manifest | undefined {
  for (let at = path.join(root, dir); at.startsWith(root); at = path.dirname(at)) {
    const file = path.join(at, "node_modules", name, "package.json");
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  }
  return undefined;
}

describe("docs/architecture.md's package table is the monorepo's import rule", () => {
  const rows = packageTable();

  it("has one row per workspace package, each linking its README", () => {
    expect(rows.map((row) => row.dir).sort()).toEqual([...workspaceDirs].sort());
    for (const row of rows) {
      expect(row.readme, row.dir).toBe(path.join("docs", "..", row.dir, "README.md"));
      expect(existsSync(path.join(root, row.readme)), row.readme).toBe(true);
    }
  });

  describe.each(rows.map((row) => [row.dir, row] as const))("%s", (dir, row) => {
    const { files, uses } = shippedImports(dir);
    const dependencies = Object.keys(manifest(dir).dependencies ?? {});

    it("its shipped code is found from its entry points", () => {
      expect(files.length).toBeGreaterThan(0);
    });

    it("its shipped code imports only what its row allows", () => {
      const refused = uses
        .filter((use) => !row.allowed.some((pattern) => allows(pattern, use.name)))
        .map((use) => `${use.file} imports ${use.name}`);
      expect([...new Set(refused)]).toEqual([]);
    });

    it("every name in its row is imported by its shipped code", () => {
      const unused = row.allowed.filter(
        (pattern) => !uses.some((use) => allows(pattern, use.name)),
      );
      expect(unused).toEqual([]);
    });

    it("its shipped code imports at run time only what package.json's dependencies install", () => {
      const undeclared = uses
        .filter((use) => !use.typeOnly && !use.name.startsWith("node:"))
        .filter((use) => !dependencies.includes(use.name))
        .map((use) => `${use.file} imports ${use.name}`);
      expect([...new Set(undeclared)]).toEqual([]);
    });

    it("package.json's dependencies are each imported, or a peer of one that is", () => {
      const imported = new Set(uses.map((use) => use.name));
      const peers = new Set(
        [...imported].flatMap((name) =>
          Object.keys(installedManifest(dir, name)?.peerDependencies ?? {}),
        ),
      );
      const unused = dependencies.filter((name) => !imported.has(name) && !peers.has(name));
      expect(unused).toEqual([]);
    });
  });
});
