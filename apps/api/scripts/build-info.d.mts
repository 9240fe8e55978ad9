/** Semantic Versioning 2.0.0, as its own specification writes the rule. */
export const SEMANTIC_VERSION: RegExp;
/** The release in `<root>/package.json`, refused unless it is a semantic version. */
export function releaseVersion(root: string): string;
/** esbuild `define` entries that give the bundle its git revision (HYPERLENS_REVISION or null). */
export function buildInfoDefines(env: Record<string, string | undefined>): Record<string, string>;
