// The session rule Cloud Director and vCenter share (docs/behaviour.md §4 step 5, §5): the outermost withSession
// logs in, nested calls reuse that session, and the outermost call always logs out when it ends,
// after a success or a throw. A failed logout only costs a session that expires on its own, so it
// is logged, never thrown over the real outcome.
import type { HyperClient } from "./client.ts";
import type { SourceName } from "./errors.ts";
import type { HyperLogger } from "./observability.ts";

/** The login and logout a {@link SessionScope} drives. */
export interface ScopedSession {
  login(): Promise<unknown>;
  /** Deletes the open session, if any; rejects when that fails. */
  logout(): Promise<void>;
}

/** Options of {@link createSessionScope}. */
export interface SessionScopeOptions {
  session: ScopedSession;
  /** Names the source in the failed-logout warning. */
  source: SourceName;
  /** The connection's client: its id goes into the warning; `close()` closes it when owned. */
  http: HyperClient;
  /**
   * True when the source's client built `http` itself: `close()` then closes it; an injected client
   * is left to its owner.
   */
  ownsHttp: boolean;
  logger: HyperLogger;
}

/** A session opened by the outermost {@link SessionScope.run} and always closed by it. */
export interface SessionScope {
  /**
   * Runs `fn` in the session: the outermost call logs in first and logs out when it ends, even
   * when `fn` or the login throws; nested calls share the outer session.
   */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Logs out if a session is still open (a failure is logged), then closes the client if owned. */
  close(): Promise<void>;
}

/** Creates a {@link SessionScope} over a source's session. */
export function createSessionScope(options: SessionScopeOptions): SessionScope {
  const { session, source, http, logger } = options;
  let depth = 0;

  async function logoutQuietly(): Promise<void> {
    try {
      await session.logout();
    } catch (error) {
      logger.warn({
        msg: `${source} logout failed; the session will expire on its own`,
        connectionId: http.connectionId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  return {
    async run(fn) {
      depth++;
      try {
        if (depth === 1) await session.login();
        return await fn();
      } finally {
        depth--;
        // TRAP: docs/behaviour.md §4, §5 — no session is ever left behind: logout after Test, sync, and a failed sync.
        if (depth === 0) await logoutQuietly();
      }
    },
    async close() {
      await logoutQuietly();
      if (options.ownsHttp) await http.close();
    },
  };
}
