// `hyperlens user list | passwd | disable | enable`: the same rules as the web app's Users page
// (services/users.ts), run against the configured database. On PostgreSQL they work while the
// server runs; the embedded database belongs to the running server alone, so there they refuse.
import { type Database, dataDirHolder, openDatabase } from "@hyperlens/db";
import type { Config } from "../config.ts";
import { commandLineActor } from "../services/audit.ts";
import {
  disableUser,
  enableUser,
  findUserByName,
  resetUserPassword,
  type UserLifecycle,
} from "../services/users.ts";
import { publishCredentialsChangedOnce } from "../syncs/progress-events.ts";

/** The embedded database is held by a running server: the command cannot change it. */
export class ServerHoldsDatabaseError extends Error {
  override name = "ServerHoldsDatabaseError";
}

/** A user name that names nobody. */
export class UnknownUserError extends Error {
  override name = "UnknownUserError";
}

/** Refuses while a running server holds the embedded database (before a password is asked). */
export function refuseWhileServerHoldsDatabase(config: Config): void {
  if (config.database.kind === "pglite") {
    const holder = dataDirHolder(config.database.dataDir);
    // TRAP: docs/behaviour.md §12.10 — a second process on a PGlite data directory corrupts it.
    if (holder !== undefined) {
      throw new ServerHoldsDatabaseError(
        `The Hyperlens server (pid ${holder}) is running on the embedded database in ${config.database.dataDir}, ` +
          "which only it may open. Stop the server and run this again, or manage users in the web app (Users page). " +
          "With PostgreSQL (DATABASE_URL) this command works while the server runs.",
      );
    }
  }
}

/** Opens the database for a user command; refuses while a server holds the embedded one. */
export async function openForUsers(config: Config): Promise<Database> {
  refuseWhileServerHoldsDatabase(config);
  return openDatabase(config.database);
}

/**
 * The lifecycle rules as the command line runs them. With REDIS_URL set, a change is announced
 * through Redis, so the running servers end the user's open subscriptions at once; without it
 * they end at their next periodic check (HYPERLENS_SUBSCRIPTION_RECHECK_SECONDS).
 */
function lifecycleFor(config: Config, db: Database): UserLifecycle {
  const { redisUrl } = config;
  return {
    prisma: db.prisma,
    announce: (userId) =>
      redisUrl
        ? publishCredentialsChangedOnce({ url: redisUrl, prefix: config.redisPrefix }, { userId })
        : undefined,
  };
}

async function withUser<T>(
  config: Config,
  username: string,
  run: (life: UserLifecycle, user: { id: string; username: string }) => Promise<T>,
): Promise<T> {
  const db = await openForUsers(config);
  try {
    const user = await findUserByName(db.prisma, username);
    if (!user) throw new UnknownUserError(`There is no user named ${username}.`);
    return await run(lifecycleFor(config, db), user);
  } finally {
    await db.close();
  }
}

/** Prints every user: name, role, capabilities, state. */
export async function listUsers(config: Config): Promise<void> {
  const db = await openForUsers(config);
  try {
    const users = await db.prisma.user.findMany({ orderBy: { username: "asc" } });
    const rows = users.map((u) => [
      u.username,
      u.isAdmin ? "administrator" : u.capabilities.join(",") || "(none)",
      [u.disabledAt ? "disabled" : "enabled", u.mustChangePassword ? "must change password" : ""]
        .filter(Boolean)
        .join(", "),
    ]);
    const header = ["NAME", "CAPABILITIES", "STATE"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
    for (const row of [header, ...rows])
      console.log(
        row
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join("  ")
          .trimEnd(),
      );
  } finally {
    await db.close();
  }
}

/**
 * Sets a user's password and ends their sessions. They must choose a new one at their next
 * sign-in unless `mustChange` is false (an operator setting a password they will keep, such as
 * an administrator locked out of their own account).
 */
export async function setUserPassword(
  config: Config,
  username: string,
  password: string,
  mustChange: boolean,
): Promise<void> {
  await withUser(config, username, async (life, user) => {
    await resetUserPassword(life, commandLineActor(), {
      userId: user.id,
      newPassword: password,
      mustChange,
    });
    console.log(
      `Set the password of ${user.username}; their sessions have ended.` +
        (mustChange ? " They must choose a new one at their next sign-in." : ""),
    );
  });
}

/** Disables (or enables again) a user. */
export async function setUserDisabled(
  config: Config,
  username: string,
  isDisabled: boolean,
): Promise<void> {
  await withUser(config, username, async (life, user) => {
    if (isDisabled) {
      await disableUser(life, commandLineActor(), user.id);
      console.log(
        `Disabled ${user.username}: their sessions ended and their API tokens are revoked.` +
          (config.redisUrl
            ? " Running servers were told through Redis and end their open subscriptions now."
            : " Their open subscriptions end at the servers' next check."),
      );
    } else {
      await enableUser(life, commandLineActor(), user.id);
      console.log(`Enabled ${user.username}. Their old API tokens stay revoked.`);
    }
  });
}
