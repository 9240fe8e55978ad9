#!/usr/bin/env node
// The two README commands in one place: `npm start` and `npm test` install what is missing
// (npm ci from the lockfile, the generated Prisma client, the web build) before they run.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { serverEnvironment } from "./server-environment.mjs";

const root = path.resolve(import.meta.dirname, "..");
const at = (...parts) => path.join(root, ...parts);

function run(command, args, extraEnv = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...extraEnv },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function isInstalled() {
  const marker = at("node_modules/.package-lock.json");
  return (
    existsSync(marker) && statSync(marker).mtimeMs >= statSync(at("package-lock.json")).mtimeMs
  );
}

if (!isInstalled()) {
  console.log("Installing dependencies (npm ci)…");
  run("npm", ["ci", "--no-audit", "--no-fund"]);
}
if (!existsSync(at("packages/db/src/generated/prisma/client.ts"))) run("npm", ["run", "generate"]);

const mode = process.argv[2];
if (mode === "start") {
  run("npm", ["run", "build", "-w", "@hyperlens/web"]);
  // The launch flags of apps/api/src/heap-growth.ts (LAUNCH_FLAGS); a test keeps them equal.
  const flags = ["--max-semi-space-size=8", "--liftoff-only"];
  const server = spawn(
    process.execPath,
    [...flags, "--import", "tsx", at("apps/api/src/main.ts")],
    {
      cwd: root,
      stdio: "inherit",
      // The quick start shows demo hypervisors unless told otherwise (HYPERLENS_DEMO=0);
      // production gets none.
      env: serverEnvironment(process.env),
    },
  );
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => process.exit(code ?? 0));
} else if (mode === "test") {
  const only = process.argv.slice(3);
  run(at("node_modules/.bin/vitest"), ["run", ...only]);
  // The browser tests follow the unit tests unless a subset was asked for; without
  // /usr/bin/chromium they print a notice and are skipped.
  if (only.length === 0) run(process.execPath, [at("e2e/run.mjs")]);
}
