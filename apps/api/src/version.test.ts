// The release has one home, the root package.json; the sources (tsx) and the bundle (which runs in
// the image without that file) report the same one, and the bundle carries its build's revision.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { buildInfoDefines, releaseVersion, SEMANTIC_VERSION } from "../scripts/build-info.mjs";
import { BUILD_INFO, type BuildInfo, describeBuild } from "./version.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const packageVersion: unknown = JSON.parse(
  readFileSync(path.join(root, "package.json"), "utf8"),
).version;

describe("the release version", () => {
  it("is the root package.json's version, a semantic version", () => {
    expect(typeof packageVersion).toBe("string");
    expect(String(packageVersion)).toMatch(SEMANTIC_VERSION);
    expect(BUILD_INFO.version).toBe(packageVersion);
    expect(releaseVersion(root)).toBe(packageVersion);
  });

  it("has its section in CHANGELOG.md, the newest under [Unreleased], dated", () => {
    const changelog = readFileSync(path.join(root, "CHANGELOG.md"), "utf8");
    const headings = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)];
    expect(headings[0]?.[1]).toBe("Unreleased");
    expect(headings[1]?.[1]).toBe(packageVersion);
    expect(headings[1]?.[2]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const [, version] of headings.slice(1)) expect(version).toMatch(SEMANTIC_VERSION);
  });

  it("has no revision when run from the sources", () => {
    expect(BUILD_INFO.revision).toBeNull();
    expect(describeBuild()).toBe(`hyperlens ${packageVersion}`);
  });

  it("refuses to build a release that is not a semantic version, or a revision that is not a commit id", () => {
    const fakeRoot = mkdtempSync(path.join(tmpdir(), "hl-version-"));
    try {
      for (const version of ["1.0", "v1.0.0", "01.0.0", undefined]) {
        const manifest = JSON.stringify({ name: "hyperlens", version });
        writeFileSync(path.join(fakeRoot, "package.json"), manifest);
        expect(() => releaseVersion(fakeRoot), String(version)).toThrow(/semantic version/);
      }
    } finally {
      rmSync(fakeRoot, { recursive: true, force: true });
    }
    expect(() => buildInfoDefines({ HYPERLENS_REVISION: "main; rm -rf /" })).toThrow(/commit id/);
    expect(buildInfoDefines({ HYPERLENS_REVISION: " " })).toEqual({
      __HYPERLENS_REVISION__: "null",
    });
  });
});

describe("the bundle", () => {
  // The image's /app holds dist/ and node_modules only: bundle into a folder with no package.json
  // anywhere above it, with the defines the production build uses.
  const out = mkdtempSync(path.join(tmpdir(), "hl-bundle-version-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("reports package.json's release and the revision it was built with", async () => {
    const revision = "0123456789abcdef0123456789abcdef01234567";
    await build({
      entryPoints: { version: path.join(import.meta.dirname, "version.ts") },
      outdir: out,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      format: "esm",
      platform: "node",
      define: buildInfoDefines({ HYPERLENS_REVISION: revision }),
      logLevel: "silent",
    });
    const bundled: { BUILD_INFO: BuildInfo } = await import(
      pathToFileURL(path.join(out, "version.mjs")).href
    );
    expect(bundled.BUILD_INFO).toEqual({ version: packageVersion, revision });
  });
});
