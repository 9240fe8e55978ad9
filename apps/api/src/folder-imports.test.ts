// The folders of apps/api depend one way (docs/architecture.md, "Inside apps/api"): drivers know
// nothing of the rules or of how syncs are coordinated, and the rules nothing of the coordination.
// Before, sources/ and services/ imported each other and the Test shared a file with the leases.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const src = import.meta.dirname;

/** Which folders the shipped code of a folder must not import. */
const NEVER: Record<string, string[]> = {
  sources: ["services", "syncs"],
  services: ["syncs"],
};

/** The folders of src/ that a folder's shipped (non-test) files import by relative path. */
function foldersImportedBy(folder: string): { file: string; target: string }[] {
  const files = readdirSync(path.join(src, folder)).filter(
    (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"),
  );
  return files.flatMap((name) =>
    [
      ...readFileSync(path.join(src, folder, name), "utf8").matchAll(
        /(?:from|import)\s*\(?\s*"(\.[^"]+)"/g,
      ),
    ].map(([, specifier = ""]) => ({
      file: `${folder}/${name}`,
      target: path.relative(src, path.resolve(src, folder, specifier)).split(path.sep)[0] ?? "",
    })),
  );
}

describe("apps/api's folders import one way", () => {
  it.each(Object.entries(NEVER))("%s/ imports none of %j", (folder, forbidden) => {
    const refused = foldersImportedBy(folder)
      .filter(({ target }) => forbidden.includes(target))
      .map(({ file, target }) => `${file} imports ${target}/`);
    expect(refused).toEqual([]);
  });
});
