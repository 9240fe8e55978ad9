// Which Hyperlens this is. The release lives in one place, the root package.json's `version`: the
// import below is read at run time under tsx and inlined by esbuild into the bundle, so the image
// (which has no package.json in /app) reports the release it was built from. The git revision
// exists only at build time: apps/api/scripts/build-info.mjs defines it for the bundle.
import rootPackage from "../../../package.json" with { type: "json" };

/** What `hyperlens --version`, `/healthz` and the GraphQL viewer report. */
export interface BuildInfo {
  /** The semantic version of the release (root package.json), e.g. "0.2.0". */
  version: string;
  /** The git commit the bundle was built from (HYPERLENS_REVISION at build time), or null. */
  revision: string | null;
}

// Replaced by esbuild's `define` in the bundle; undeclared under tsx, where typeof answers
// "undefined" instead of throwing.
declare const __HYPERLENS_REVISION__: string | null | undefined;

/** This process's release and revision. */
export const BUILD_INFO: BuildInfo = Object.freeze({
  version: rootPackage.version,
  revision: typeof __HYPERLENS_REVISION__ === "string" ? __HYPERLENS_REVISION__ : null,
});

/** One line for people: "hyperlens 0.2.0" or "hyperlens 0.2.0 (revision 1a2b3c4d)". */
export function describeBuild(info: BuildInfo = BUILD_INFO): string {
  const revision = info.revision ? ` (revision ${info.revision})` : "";
  return `hyperlens ${info.version}${revision}`;
}
