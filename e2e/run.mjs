#!/usr/bin/env node
// Runs the browser tests when Debian's Chromium is installed; otherwise says so and skips them.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const CHROMIUM = "/usr/bin/chromium";

if (!existsSync(CHROMIUM)) {
  console.log(
    `\nSkipping the browser tests: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does).\n`,
  );
  process.exit(0);
}
// Always rebuild: a stale dist would test an old app (vite build takes about a second).
const build = spawnSync("npm", ["run", "build", "-w", "@hyperlens/web"], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
});
if (build.status !== 0) process.exit(build.status ?? 1);
const files = [
  "e2e/web.e2e.ts",
  "e2e/sso.e2e.ts",
  "e2e/ldap.e2e.ts",
  "e2e/accounts.e2e.ts",
  "e2e/webhooks.e2e.ts",
  "e2e/address-rules.e2e.ts",
  "e2e/graphiql.e2e.ts",
  "e2e/pages-a11y.e2e.ts",
  "e2e/servers-grouping.e2e.ts",
  "e2e/server-text.e2e.ts",
  "e2e/servers-history.e2e.ts",
  "e2e/servers-filters.e2e.ts",
  "e2e/servers-views.e2e.ts",
];
// `node e2e/run.mjs graphiql` runs only the files whose name holds one of the words given.
const words = process.argv.slice(2);
const chosen = words.length ? files.filter((file) => words.some((w) => file.includes(w))) : files;
if (chosen.length === 0) {
  console.error(`No browser test file matches ${words.join(", ")}: ${files.join(", ")}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=1", ...chosen.map((f) => path.join(root, f))],
  { cwd: root, stdio: "inherit" },
);
process.exit(result.status ?? 1);
