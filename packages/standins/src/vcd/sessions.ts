import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { DirectorModel } from "./model.ts";

/** Which login endpoint a user belongs to: tenants `/sessions`, the System org `/sessions/provider`. */
export type VcdRole = "tenant" | "provider";

/** A user the stand-in accepts. */
export interface VcdUserSpec {
  user: string;
  /** Org name (`System` for provider administrators); must exist in the model for tenants. */
  org: string;
  password: string;
  role: VcdRole;
}

/** An open (or closed) CloudAPI session. */
export interface VcdSession {
  /** `urn:vcloud:session:<uuid>`. */
  id: string;
  token: string;
  user: VcdUserSpec;
  userId: string;
  /** Org UUID; the System org's fixed UUID for providers. */
  orgId: string;
  orgName: string;
  role: VcdRole;
  openedAt: number;
  closed: boolean;
  expired: boolean;
}

/** The System org's UUID in every stand-in. */
export const SYSTEM_ORG_ID = "a93c9db9-7471-3192-8d09-a8f7eeda85f9";

/** Why a login failed: bad credentials, or the right user on the wrong endpoint. */
export type LoginResult =
  | { ok: true; session: VcdSession }
  | { ok: false; reason: "bad-credentials" | "wrong-endpoint" };

/**
 * Director's session store: Basic login on the tenant or provider endpoint, bearer tokens,
 * logout, and a switch that expires every session at once (as an idle timeout would).
 */
export class VcdSessions {
  readonly #byToken = new Map<string, VcdSession>();
  readonly #userIds = new Map<string, string>();
  /** Every session ever opened, in order (closed and expired ones included). */
  readonly history: VcdSession[] = [];

  constructor(
    readonly users: VcdUserSpec[],
    readonly model: DirectorModel,
    readonly now: () => number,
  ) {}

  /** Sessions neither logged out nor expired. */
  get open(): number {
    let count = 0;
    for (const session of this.#byToken.values()) if (!session.closed && !session.expired) count++;
    return count;
  }

  /** Check a `Basic` header against the users for the endpoint the client chose. */
  login(authorization: string | undefined, endpoint: VcdRole): LoginResult {
    const user = this.#verify(authorization);
    if (!user) return { ok: false, reason: "bad-credentials" };
    if (user.role !== endpoint) return { ok: false, reason: "wrong-endpoint" };
    const org = user.role === "provider" ? undefined : this.model.orgByName(user.org);
    if (user.role === "tenant" && !org) return { ok: false, reason: "bad-credentials" };
    const key = `${user.user.toLowerCase()}@${user.org.toLowerCase()}`;
    let userId = this.#userIds.get(key);
    if (userId === undefined) {
      userId = randomUUID();
      this.#userIds.set(key, userId);
    }
    const session: VcdSession = {
      id: `urn:vcloud:session:${randomUUID()}`,
      token: jwtLikeToken(user, this.now()),
      user,
      userId,
      orgId: org?.id ?? SYSTEM_ORG_ID,
      orgName: org?.name ?? "System",
      role: user.role,
      openedAt: this.now(),
      closed: false,
      expired: false,
    };
    this.#byToken.set(session.token, session);
    this.history.push(session);
    return { ok: true, session };
  }

  /** The open session of a `Bearer` header, if any. */
  authenticate(headers: IncomingHttpHeaders): VcdSession | undefined {
    const match = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? "");
    const session = match?.[1] === undefined ? undefined : this.#byToken.get(match[1]);
    return session && !session.closed && !session.expired ? session : undefined;
  }

  /** An open session by URN. */
  byId(id: string): VcdSession | undefined {
    for (const session of this.#byToken.values()) {
      if (session.id === id && !session.closed && !session.expired) return session;
    }
    return undefined;
  }

  /** Log a session out. */
  close(session: VcdSession): void {
    session.closed = true;
  }

  /** Expire every open session: their tokens answer 401 from now on. */
  expireAll(): void {
    for (const session of this.#byToken.values()) session.expired = true;
  }

  #verify(authorization: string | undefined): VcdUserSpec | undefined {
    const match = /^Basic\s+(\S+)$/i.exec(authorization ?? "");
    if (!match?.[1]) return undefined;
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    // Basic splits at the first colon, so a colon inside the user name ends up in the password.
    const colon = decoded.indexOf(":");
    if (colon < 0) return undefined;
    const login = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    // User names may contain "@" themselves (e-mail style); the org follows the last one.
    const at = login.lastIndexOf("@");
    if (at <= 0) return undefined;
    const name = login.slice(0, at).toLowerCase();
    const org = login.slice(at + 1).toLowerCase();
    return this.users.find(
      (u) =>
        u.user.toLowerCase() === name && u.org.toLowerCase() === org && u.password === password,
    );
  }
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString("base64url");
}

/** Three base64url parts like Director's RS256 JWT; only the stand-in ever reads it back. */
function jwtLikeToken(user: VcdUserSpec, now: number): string {
  const header = base64url(JSON.stringify({ alg: "RS256" }));
  const payload = base64url(
    JSON.stringify({
      iss: "a93c9db9-7471-3192-8d09-a8f7eeda85f9@standin",
      sub: user.user,
      exp: Math.floor(now / 1000) + 24 * 3600,
      version: "urn:vcloud:session:standin",
      jti: randomUUID(),
    }),
  );
  return `${header}.${payload}.${base64url(randomBytes(32))}`;
}
