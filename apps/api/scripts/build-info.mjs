// What the bundle is built as: the release is checked here and inlined from the root package.json
// by esbuild (apps/api/src/version.ts imports it); the git revision, which only the build knows,
// is defined for the bundle. Plain JavaScript: build.mjs runs on bare Node.
import { readFileSync } from "node:fs";
import path from "node:path";

/** Semantic Versioning 2.0.0, as its own specification writes the rule. */
export const SEMANTIC_VERSION =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** A git object name, abbreviated or whole (SHA-1 or SHA-256). */
const GIT_REVISION = /^[0-9a-f]{7,64}$/;

/**
 * The release in `<root>/package.json`, refused unless it is a semantic version.
 * @param {string} root the repository root
 * @returns {string}
 */
export function releaseVersion(root) {
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  if (typeof version !== "string" || !SEMANTIC_VERSION.test(version))
    throw new Error(`package.json's version must be a semantic version (x.y.z), not ${version}.`);
  return version;
}

/**
 * esbuild `define` entries that give the bundle its git revision: HYPERLENS_REVISION (the
 * Dockerfile's REVISION build argument), or none (null) when it is unset.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string>}
 */
export function buildInfoDefines(env) {
  const revision = env.HYPERLENS_REVISION?.trim().toLowerCase() || null;
  if (revision !== null && !GIT_REVISION.test(revision))
    throw new Error(`HYPERLENS_REVISION must be a git commit id, not ${revision}.`);
  return { __HYPERLENS_REVISION__: JSON.stringify(revision) };
}
