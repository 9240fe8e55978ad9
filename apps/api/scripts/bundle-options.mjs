// What the production bundle is built from: its two entry points, the third-party packages left
// external, and the banner that points it at its migrations and web app. Shared by build.mjs and
// the test of what the bundle carries (src/production-bundle.test.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** esbuild options of the server bundle for the monorepo at `root`, without output settings. */
export function bundleOptions(root) {
  const api = path.join(root, "apps/api");
  const workspaceManifests = ["apps", "packages"].flatMap((group) =>
    readdirSync(path.join(root, group)).map((name) => path.join(root, group, name, "package.json")),
  );
  const external = new Set();
  for (const file of workspaceManifests.filter(existsSync)) {
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      if (!name.startsWith("@hyperlens/")) external.add(name);
    }
  }
  return {
    entryPoints: { server: path.join(api, "src/main.ts"), cli: path.join(api, "src/cli/main.ts") },
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22.19",
    // Packages used by the external ones (e.g. @prisma/client/runtime/…) are matched by prefix.
    external: [...external].flatMap((name) => [name, `${name}/*`]),
    // The bundle sits in dist/, not in the source tree: point the migrations and the web app at
    // their copies beside it unless the operator chose other places.
    banner: {
      js: [
        'import { createRequire as __hlCreateRequire } from "node:module";',
        'import __hlPath from "node:path";',
        "const require = __hlCreateRequire(import.meta.url);",
        'process.env.HYPERLENS_MIGRATIONS_DIR ??= __hlPath.join(import.meta.dirname, "migrations");',
        'process.env.HYPERLENS_WEB_DIR ??= __hlPath.join(import.meta.dirname, "web");',
      ].join("\n"),
    },
  };
}
