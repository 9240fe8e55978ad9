// Writes prisma/migrations/<UTC timestamp>_<name>/migration.sql from the schema change.
// Usage: npm run migration:new -- <name>
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run migration:new -- <name>   (lower-case letters, digits, _)");
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "../../..");
const migrations = path.join(root, "prisma/migrations");
const hasMigrations =
  existsSync(migrations) && readdirSync(migrations).some((d) => /^\d{14}_/.test(d));
const from = hasMigrations ? ["--from-migrations", migrations] : ["--from-empty"];
const result = spawnSync(
  "npx",
  [
    "prisma",
    "migrate",
    "diff",
    "--config",
    path.join(root, "prisma/prisma.config.ts"),
    ...from,
    "--to-schema-datamodel",
    path.join(root, "prisma/schema.prisma"),
    "--script",
    "--exit-code",
  ],
  { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
);
if (result.status === 0) {
  console.log("No schema changes.");
  process.exit(0);
}
if (result.status !== 2) process.exit(result.status ?? 1);
// Prisma names folders by UTC time; so must we, or hand-made folders sort wrongly.
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(migrations, `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "migration.sql"), result.stdout);
if (!hasMigrations)
  writeFileSync(path.join(migrations, "migration_lock.toml"), 'provider = "postgresql"\n');
console.log(`Wrote ${path.relative(root, dir)}/migration.sql`);
