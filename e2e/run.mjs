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
const result = spawnSync(
  process.execPath,
  [
    "--import",
    "tsx",
    "--test",
    "--test-concurrency=1",
    path.join(root, "e2e/web.e2e.ts"),
    path.join(root, "e2e/sso.e2e.ts"),
    path.join(root, "e2e/ldap.e2e.ts"),
    path.join(root, "e2e/accounts.e2e.ts"),
    path.join(root, "e2e/webhooks.e2e.ts"),
    path.join(root, "e2e/address-rules.e2e.ts"),
  ],
  { cwd: root, stdio: "inherit" },
);
process.exit(result.status ?? 1);
