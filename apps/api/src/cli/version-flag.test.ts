// `hyperlens --version` as an operator runs it: a real process, nothing configured, no database.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const main = path.join(import.meta.dirname, "main.ts");
// By URL: the process runs in an empty folder, from which the name "tsx" does not resolve.
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const { version } = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../../../package.json"), "utf8"),
);

describe("hyperlens --version", () => {
  it("prints the release from package.json and exits 0, with no configuration and no database", () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "hl-cli-version-"));
    try {
      const run = spawnSync(process.execPath, ["--import", tsx, main, "--version"], {
        cwd,
        env: { PATH: process.env.PATH ?? "" },
        encoding: "utf8",
      });
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe(`hyperlens ${version}\n`);
      expect(run.status).toBe(0);
      // It opened nothing: the default data directory was not created.
      expect(existsSync(path.join(cwd, "data"))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
