// The hyperlens command line: `npm run hyperlens -- <command>` from the repo root.
import { DatabaseStartupError, openDatabase, SecretKeyFormatError } from "@hyperlens/db";
import { ConfigError, loadConfig } from "../config.ts";
import { ValidationError } from "../services/errors.ts";
import { createUser } from "../services/users.ts";
import { readPassword } from "./read-password.ts";

const USAGE = `Usage: hyperlens <command>

Commands:
  user create <name> [--password-stdin] [--admin]   create a user (asks for the password,
                                                    or reads one line from standard input)
  migrate                                           apply pending database migrations
`;

/** A wrong command line: printed with the usage, exit code 2. */
class UsageError extends Error {}

async function userCreate(args: string[]) {
  const flags = new Set(args.filter((a) => a.startsWith("--")));
  const unknown = [...flags].filter((f) => f !== "--password-stdin" && f !== "--admin");
  const positional = args.filter((a) => !a.startsWith("--"));
  if (unknown.length) throw new UsageError(`Unknown option ${unknown.join(", ")}.`);
  if (positional.length !== 1 || !positional[0])
    throw new UsageError("Give exactly one user name.");
  const password = await readPassword(flags.has("--password-stdin"));
  const config = loadConfig();
  const db = await openDatabase(config.database);
  try {
    const isAdmin = flags.has("--admin");
    const user = await createUser(db.prisma, { username: positional[0], password, isAdmin }, null);
    console.log(`Created ${isAdmin ? "administrator" : "user"} ${user.username}.`);
  } finally {
    await db.close();
  }
}

async function migrate() {
  const db = await openDatabase(loadConfig().database);
  await db.close();
  console.log("The database is up to date.");
}

async function run(argv: string[]) {
  const [command, sub, ...rest] = argv;
  if (command === "user" && sub === "create") return userCreate(rest);
  if (command === "migrate" && sub === undefined) return migrate();
  if (command === undefined || command === "help" || command === "--help") {
    console.log(USAGE);
    return;
  }
  throw new UsageError(`Unknown command: ${argv.join(" ")}`);
}

run(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    const known = [ConfigError, DatabaseStartupError, SecretKeyFormatError, ValidationError];
    if (known.some((type) => error instanceof type)) {
      const field = error instanceof ValidationError && error.field ? `${error.field}: ` : "";
      console.error(`${field}${(error as Error).message}`);
    } else {
      console.error("Unexpected error:", error);
    }
    process.exit(1);
  },
);
