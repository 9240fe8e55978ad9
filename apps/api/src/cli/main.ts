// The hyperlens command line: `npm run hyperlens -- <command>` from the repo root.
import {
  BackupError,
  DatabaseStartupError,
  openDatabase,
  SecretKeyFormatError,
} from "@hyperlens/db";
import { DEFAULT_CAPABILITIES } from "@hyperlens/shared";
import { closeServices, createServices } from "../app.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { HyperlensError, ValidationError } from "../errors.ts";
import { limitHeapGrowth } from "../heap-growth.ts";
import { createLogger } from "../logger.ts";
import {
  rotateSecrets,
  rotationSecretBox,
  SecretRotationError,
} from "../services/secret-rotation.ts";
import { createUser } from "../services/users.ts";
import { RedisStartupError } from "../syncs/progress-events.ts";
import { describeBuild } from "../version.ts";
import { InventoryCommandError, runAnsibleInventoryCommand } from "./ansible-inventory-command.ts";
import { NotEmbeddedError, runBackupCommand, runRestoreCommand } from "./backup-command.ts";
import { readPassword } from "./read-password.ts";
import { runSyncCommand } from "./sync-command.ts";
import {
  listUsers,
  openForUsers,
  refuseWhileServerHoldsDatabase,
  ServerHoldsDatabaseError,
  setUserDisabled,
  setUserPassword,
  UnknownUserError,
} from "./user-commands.ts";

const USAGE = `Usage: hyperlens <command>

Commands:
  --version                                         print the release (and the git revision the
                                                    build was made from)
  user create <name> [--password-stdin] [--admin] [--no-sync]
                                                    create a user (asks for the password,
                                                    or reads one line from standard input)
                                                    who may view and start syncs; --no-sync:
                                                    view only (no RUN_SYNC)
  user list                                         list users, their capabilities and state
  user passwd <name> [--password-stdin] [--no-must-change]
                                                    set a user's password (asked, or one line
                                                    of standard input) and end their sessions;
                                                    they must choose a new one at their next
                                                    sign-in unless --no-must-change
  user disable <name>                               disable a user: sessions end, API tokens
                                                    are revoked (user enable <name> undoes the
                                                    disabling, not the revocation)
                                                    The user commands work while the server
                                                    runs on PostgreSQL; on the embedded
                                                    database, stop it or use the web app.
  sync <connection>                                 sync one connection (by name) now
  sync --all [--force]                              sync every active connection that is due
                                                    (--force: all of them); exit code 1 if any
                                                    failed
  secrets rotate                                    re-seal every stored connection secret
                                                    with HYPERLENS_SECRET_KEY (old ones are
                                                    read with HYPERLENS_SECRET_KEY_PREVIOUS or
                                                    the data directory's key file)
  migrate                                           apply pending database migrations
  backup <file> [--url <url>] [--token <token>]     archive the embedded database into <file>:
                                                    asks the running server (an administrator's
                                                    API token holding every capability, in
                                                    HYPERLENS_TOKEN or --token), or reads the data
                                                    directory when no server runs; the secret key
                                                    is not in the archive
  restore <file>                                    restore a backup into an empty data directory
                                                    (the server must not be running)
  ansible-inventory --list | --host <name>          Ansible's inventory from a running server
                                                    (HYPERLENS_URL, HYPERLENS_TOKEN; a filter in
                                                    HYPERLENS_INVENTORY_QUERY, e.g. tags=web);
                                                    --host prints that host's variables, {} if
                                                    the inventory has no such host
`;

/** A wrong command line: printed with the usage, exit code 2. */
class UsageError extends Error {}

async function userCreate(args: string[]) {
  const flags = new Set(args.filter((a) => a.startsWith("--")));
  const known = new Set(["--password-stdin", "--admin", "--no-sync"]);
  const unknown = [...flags].filter((f) => !known.has(f));
  const positional = args.filter((a) => !a.startsWith("--"));
  if (unknown.length) throw new UsageError(`Unknown option ${unknown.join(", ")}.`);
  if (positional.length !== 1 || !positional[0])
    throw new UsageError("Give exactly one user name.");
  if (flags.has("--admin") && flags.has("--no-sync"))
    throw new UsageError(
      "An administrator holds every capability; --no-sync goes without --admin.",
    );
  const config = loadConfig();
  refuseWhileServerHoldsDatabase(config);
  const password = await readPassword(flags.has("--password-stdin"));
  const db = await openForUsers(config);
  try {
    const isAdmin = flags.has("--admin");
    const capabilities = flags.has("--no-sync")
      ? DEFAULT_CAPABILITIES.filter((c) => c !== "RUN_SYNC")
      : DEFAULT_CAPABILITIES;
    const user = await createUser(
      db.prisma,
      { username: positional[0], password, isAdmin, capabilities },
      null,
    );
    const holds = isAdmin ? "every capability" : user.capabilities.join(", ");
    console.log(`Created ${isAdmin ? "administrator" : "user"} ${user.username}. Holds: ${holds}.`);
  } finally {
    await db.close();
  }
}

/** The one user name of a user command, and its flags (only `known` ones). */
function userArgs(args: string[], known: readonly string[]) {
  const flags = new Set(args.filter((a) => a.startsWith("--")));
  const unknown = [...flags].filter((f) => !known.includes(f));
  if (unknown.length) throw new UsageError(`Unknown option ${unknown.join(", ")}.`);
  const positional = args.filter((a) => !a.startsWith("--"));
  if (positional.length !== 1 || !positional[0])
    throw new UsageError("Give exactly one user name.");
  return { username: positional[0], flags };
}

async function userList(args: string[]) {
  if (args.length) throw new UsageError(`Unknown option ${args.join(", ")}.`);
  await listUsers(loadConfig());
}

async function userPasswd(args: string[]) {
  const { username, flags } = userArgs(args, ["--password-stdin", "--no-must-change"]);
  const config = loadConfig();
  refuseWhileServerHoldsDatabase(config);
  const password = await readPassword(flags.has("--password-stdin"));
  await setUserPassword(config, username, password, !flags.has("--no-must-change"));
}

async function userDisable(args: string[], isDisabled: boolean) {
  const { username } = userArgs(args, []);
  await setUserDisabled(loadConfig(), username, isDisabled);
}

async function migrate() {
  const db = await openDatabase(loadConfig().database);
  await db.close();
  console.log("The database is up to date.");
}

async function secretsRotate(args: string[]) {
  if (args.length) throw new UsageError(`Unknown option ${args.join(", ")}.`);
  const config = loadConfig();
  const secrets = rotationSecretBox(config);
  const db = await openDatabase(config.database);
  try {
    const result = await rotateSecrets(db.prisma, secrets, null);
    console.log(
      `Re-sealed ${result.resealed} connection secret(s) with key ${result.keyId}; ` +
        `${result.alreadyCurrent} already used it.`,
    );
    if (result.twoFactor.resealed + result.twoFactor.alreadyCurrent > 0) {
      console.log(
        `Re-sealed ${result.twoFactor.resealed} two-factor secret(s); ` +
          `${result.twoFactor.alreadyCurrent} already used the key.`,
      );
    }
  } finally {
    await db.close();
  }
}

async function sync(args: string[]) {
  const all = args.includes("--all");
  const force = args.includes("--force");
  const names = args.filter((a) => a !== "--all" && a !== "--force");
  const hasUnknownFlag = names.some((a) => a.startsWith("--"));
  if (hasUnknownFlag || (all && names.length > 0) || (!all && names.length !== 1)) {
    throw new UsageError("Give one connection name, or --all.");
  }
  if (force && !all) throw new UsageError("--force goes with --all (a named sync always runs).");
  limitHeapGrowth();
  const config = loadConfig();
  const logLevel = config.logLevel === "info" ? "warn" : config.logLevel;
  const services = await createServices(
    config,
    createLogger(logLevel, (line) => process.stderr.write(`${line}\n`)),
    { role: "cli" },
  );
  try {
    const ok = await runSyncCommand(
      services,
      all ? { all: true, force } : { name: names[0] ?? "" },
    );
    if (!ok) process.exitCode = 1;
  } finally {
    await closeServices(services);
  }
}

/** Splits `--name value` / `--name=value` options from positional arguments. */
function parseOptions(args: string[], names: readonly string[]) {
  const options = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const [name = "", inline] = arg.slice(2).split(/=(.*)/s);
    if (!names.includes(name)) throw new UsageError(`Unknown option ${arg}.`);
    const value = inline ?? args[++i];
    if (!value) throw new UsageError(`--${name} needs a value.`);
    options.set(name, value);
  }
  return { options, positional };
}

async function backup(args: string[]) {
  const { options, positional } = parseOptions(args, ["url", "token"]);
  if (positional.length !== 1 || !positional[0]) throw new UsageError("Give one file to write.");
  await runBackupCommand(loadConfig(), {
    file: positional[0],
    url: options.get("url"),
    token: options.get("token") ?? process.env.HYPERLENS_TOKEN,
  });
}

async function restore(args: string[]) {
  const { positional } = parseOptions(args, []);
  if (positional.length !== 1 || !positional[0]) throw new UsageError("Give one backup file.");
  await runRestoreCommand(loadConfig(), positional[0]);
}

async function ansibleInventory(args: string[]) {
  const env = {
    HYPERLENS_URL: process.env.HYPERLENS_URL,
    HYPERLENS_TOKEN: process.env.HYPERLENS_TOKEN,
    HYPERLENS_INVENTORY_QUERY: process.env.HYPERLENS_INVENTORY_QUERY,
  };
  if (args.length === 1 && args[0] === "--list")
    return runAnsibleInventoryCommand({ list: true }, env);
  if (args.length === 2 && args[0] === "--host" && args[1])
    return runAnsibleInventoryCommand({ host: args[1] }, env);
  throw new UsageError("Give --list, or --host <name>.");
}

async function run(argv: string[]) {
  const [command, sub, ...rest] = argv;
  if (command === "--version" && sub === undefined) return console.log(describeBuild());
  if (command === "user" && sub === "create") return userCreate(rest);
  if (command === "user" && sub === "list") return userList(rest);
  if (command === "user" && sub === "passwd") return userPasswd(rest);
  if (command === "user" && sub === "disable") return userDisable(rest, true);
  if (command === "user" && sub === "enable") return userDisable(rest, false);
  if (command === "migrate" && sub === undefined) return migrate();
  if (command === "secrets" && sub === "rotate") return secretsRotate(rest);
  if (command === "sync") return sync(argv.slice(1));
  if (command === "backup") return backup(argv.slice(1));
  if (command === "restore") return restore(argv.slice(1));
  if (command === "ansible-inventory") return ansibleInventory(argv.slice(1));
  if (command === undefined || command === "help" || command === "--help") {
    console.log(USAGE);
    return;
  }
  throw new UsageError(`Unknown command: ${argv.join(" ")}`);
}

run(process.argv.slice(2)).then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (error instanceof NotEmbeddedError) {
      console.error(error.message);
      process.exit(2);
    }
    const known = [
      ConfigError,
      DatabaseStartupError,
      SecretKeyFormatError,
      HyperlensError,
      RedisStartupError,
      SecretRotationError,
      BackupError,
      ServerHoldsDatabaseError,
      UnknownUserError,
      InventoryCommandError,
    ];
    if (known.some((type) => error instanceof type)) {
      const field = error instanceof ValidationError && error.field ? `${error.field}: ` : "";
      console.error(`${field}${(error as Error).message}`);
    } else {
      console.error("Unexpected error:", error);
    }
    process.exit(1);
  },
);
