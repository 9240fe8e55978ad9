// The rules the code keeps are written down in the repository, in docs/behaviour.md, and comments,
// test names and docs cite its sections as "docs/behaviour.md §N". A citation of a document outside
// the repository, or of a section the document does not have, leaves a newcomer with nothing to read.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

const SCANNED = /\.(?:ts|tsx|mts|mjs|js|md|prisma|graphql|sh)$/;
const SKIPPED_DIRECTORIES = new Set([
  "node_modules",
  "dist",
  "generated",
  "coverage",
  "artifacts",
  ".git",
  ".turbo",
  "data",
]);
// Records of what a release shipped keep its text: applied migrations are checksummed by the
// database (an edited one stops start-up), and a release's printed schema is the baseline of
// breaking-changes.test.
const IMMUTABLE = new Set([
  path.join("prisma", "migrations"),
  path.join("apps", "api", "schema-releases"),
]);

function sourceFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, directory), { withFileTypes: true })) {
    const relative = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (SKIPPED_DIRECTORIES.has(entry.name) || IMMUTABLE.has(relative)) continue;
      files.push(...sourceFiles(relative));
    } else if (SCANNED.test(entry.name)) {
      files.push(relative);
    }
  }
  return files;
}

const files = sourceFiles("").map((file) => ({
  file,
  text: readFileSync(path.join(root, file), "utf8"),
}));

// Spelled so that this file is not a hit itself.
const OUTSIDE_SPEC = new RegExp(["SPEC", "§"].join("\\s*"));
const CITATION = /docs\/behaviour\.md (§\d+(?:\s*[/–-]\s*§?\d+)*)/g;

/** Every section number a citation names: "§3–§5" names 3, 4 and 5; "§1/§2" names 1 and 2. */
function citedSections(citation: string): number[] {
  const range = /^§(\d+)\s*[–-]\s*§?(\d+)$/.exec(citation);
  if (range) {
    const [first, last] = [Number(range[1]), Number(range[2])];
    return Array.from({ length: last - first + 1 }, (_, i) => first + i);
  }
  return [...citation.matchAll(/\d+/g)].map((match) => Number(match[0]));
}

describe("behaviour citations", () => {
  it("cite no document outside the repository", () => {
    const outside = files
      .filter(({ text }) => OUTSIDE_SPEC.test(text))
      .map(
        ({ file, text }) =>
          `${file}: ${text.split("\n").filter((line) => OUTSIDE_SPEC.test(line)).length}`,
      );
    expect(outside).toEqual([]);
  });

  it("name only sections docs/behaviour.md has", () => {
    const behaviour = readFileSync(path.join(root, "docs/behaviour.md"), "utf8");
    const headings = new Set(
      [...behaviour.matchAll(/^#{2} §(\d+) /gm)].map((match) => Number(match[1])),
    );
    const cited = files.flatMap(({ file, text }) =>
      [...text.matchAll(CITATION)].flatMap((match) =>
        citedSections(match[1] ?? "").map((section) => ({ file, section })),
      ),
    );
    expect(cited.length).toBeGreaterThan(100);
    expect(cited.filter(({ section }) => !headings.has(section))).toEqual([]);
  });

  it("are reachable from a newcomer's path: README and docs/architecture.md link docs/behaviour.md", () => {
    const links = (file: string) => readFileSync(path.join(root, file), "utf8");
    expect(links("README.md")).toContain("](docs/behaviour.md)");
    expect(links("docs/architecture.md")).toContain("](behaviour.md)");
  });
});
