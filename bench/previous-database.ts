// Run in its own process from the previous release's worktree (previous-release.ts): prepares a
// database with that release's own migrations and code, and prints how its server finds it.
import path from "node:path";
import { pathToFileURL } from "node:url";

const module = pathToFileURL(path.resolve("bench/bench-database.ts")).href;
const { prepareDatabase } = (await import(module)) as {
  prepareDatabase(): Promise<{ dir: string; env: Record<string, string>; token: string }>;
};
const db = await prepareDatabase();
console.log(JSON.stringify({ dir: db.dir, env: db.env, token: db.token }));
process.exit(0);
