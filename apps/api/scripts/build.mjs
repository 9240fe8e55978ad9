#!/usr/bin/env node
// The production build of the server: apps/api/dist holds the bundled server and CLI (our
// workspace packages and the generated Prisma client inlined), the committed migrations and the
// built web app. Third-party packages stay external: they ship WASM and data files (PGlite,
// Prisma's query compiler) that they find next to their own modules, so the install keeps a
// production node_modules.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { buildInfoDefines, releaseVersion } from "./build-info.mjs";

const api = path.resolve(import.meta.dirname, "..");
const root = path.resolve(api, "../..");
const dist = path.join(api, "dist");
const webDist = path.join(root, "apps/web/dist");

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

if (!existsSync(path.join(webDist, "index.html"))) {
  console.error("apps/web/dist is missing: run `npm run build -w @hyperlens/web` first.");
  process.exit(1);
}

const version = releaseVersion(root);
rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: { server: path.join(api, "src/main.ts"), cli: path.join(api, "src/cli/main.ts") },
  outdir: dist,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22.19",
  sourcemap: true,
  define: buildInfoDefines(process.env),
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
  logLevel: "warning",
});
cpSync(path.join(root, "prisma/migrations"), path.join(dist, "migrations"), { recursive: true });
cpSync(webDist, path.join(dist, "web"), { recursive: true });
console.log(
  `Built ${path.relative(root, dist)} (${version}): server.mjs, cli.mjs, migrations/, web/`,
);
