// graphql-env.d.ts is generated from apps/api/schema.graphql and committed; a schema change that
// was not regenerated would leave documents typed against the old schema.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(
  path.dirname(createRequire(import.meta.url).resolve("gql.tada/package.json")),
  "bin/cli.js",
);
const scratch = mkdtempSync(path.join(tmpdir(), "graphql-env-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("graphql-env.d.ts", () => {
  it("is what gql.tada makes of the committed schema (npm run generate:graphql-env)", () => {
    const fresh = path.join(scratch, "graphql-env.d.ts");
    execFileSync(process.execPath, [
      cli,
      "generate",
      "output",
      "--tsconfig",
      path.join(here, "../../tsconfig.json"),
      "--output",
      fresh,
    ]);
    const committed = readFileSync(path.join(here, "graphql-env.d.ts"), "utf8");
    expect(committed === readFileSync(fresh, "utf8"), "run npm run generate:graphql-env").toBe(
      true,
    );
  });
});
