import type { BuildOptions } from "esbuild";

/** esbuild options of the server bundle for the monorepo at `root`, without output settings. */
export function bundleOptions(root: string): BuildOptions;
