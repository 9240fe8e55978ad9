#!/usr/bin/env node
// The production build of the server: apps/api/dist holds the bundled server and CLI (our
// workspace packages and the generated Prisma client inlined), the committed migrations and the
// built web app. Third-party packages stay external: they ship WASM and data files (PGlite,
// Prisma's query compiler) that they find next to their own modules, so the install keeps a
// production node_modules.
import { cpSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { buildInfoDefines, releaseVersion } from "./build-info.mjs";
import { bundleOptions } from "./bundle-options.mjs";

const api = path.resolve(import.meta.dirname, "..");
const root = path.resolve(api, "../..");
const dist = path.join(api, "dist");
const webDist = path.join(root, "apps/web/dist");

if (!existsSync(path.join(webDist, "index.html"))) {
  console.error("apps/web/dist is missing: run `npm run build -w @hyperlens/web` first.");
  process.exit(1);
}

const version = releaseVersion(root);
rmSync(dist, { recursive: true, force: true });
await build({
  ...bundleOptions(root),
  outdir: dist,
  sourcemap: true,
  define: buildInfoDefines(process.env),
  logLevel: "warning",
});
cpSync(path.join(root, "prisma/migrations"), path.join(dist, "migrations"), { recursive: true });
cpSync(webDist, path.join(dist, "web"), { recursive: true });
console.log(
  `Built ${path.relative(root, dist)} (${version}): server.mjs, cli.mjs, migrations/, web/`,
);
