import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** A user the stand-in accepts, e.g. `administrator@vsphere.local`. */
export interface VcenterUserSpec {
  user: string;
  password: string;
}

/** An open (or closed) API session. */
export interface VcenterSession {
  token: string;
  user: VcenterUserSpec;
  openedAt: number;
  lastAccessedAt: number;
  closed: boolean;
  expired: boolean;
}

/**
 * vCenter's session store: Basic login, the `vmware-api-session-id` token, logout, and a switch
 * that expires every session at once (as the 30-minute idle timeout or a vpxd restart would).
 */
export class VcenterSessions {
  readonly #byToken = new Map<string, VcenterSession>();
  /** Every session ever opened, in order (closed and expired ones included). */
  readonly history: VcenterSession[] = [];

  constructor(
    readonly users: VcenterUserSpec[],
    readonly now: () => number,
  ) {}

  /** Sessions neither logged out nor expired. */
  get open(): number {
    let count = 0;
    for (const session of this.#byToken.values()) if (!session.closed && !session.expired) count++;
    return count;
  }

  /** Checks a `Basic` header; user names compare case-insensitively, passwords exactly. */
  login(authorization: string | undefined): VcenterSession | undefined {
    const match = /^Basic\s+(\S+)$/i.exec(authorization ?? "");
    if (!match?.[1]) return undefined;
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return undefined;
    const name = decoded.slice(0, colon).toLowerCase();
    const password = decoded.slice(colon + 1);
    const user = this.users.find((u) => u.user.toLowerCase() === name && u.password === password);
    if (!user) return undefined;
    const session: VcenterSession = {
      token: randomBytes(16).toString("hex"),
      user,
      openedAt: this.now(),
      lastAccessedAt: this.now(),
      closed: false,
      expired: false,
    };
    this.#byToken.set(session.token, session);
    this.history.push(session);
    return session;
  }

  /** The open session of a `vmware-api-session-id` header, if any. */
  authenticate(headers: IncomingHttpHeaders): VcenterSession | undefined {
    const token = headers["vmware-api-session-id"];
    const session = typeof token === "string" ? this.#byToken.get(token) : undefined;
    if (!session || session.closed || session.expired) return undefined;
    session.lastAccessedAt = this.now();
    return session;
  }

  /** Logs a session out. */
  close(session: VcenterSession): void {
    session.closed = true;
  }

  /** Expires every open session: their tokens answer 401 from now on. */
  expireAll(): void {
    for (const session of this.#byToken.values()) session.expired = true;
  }
}
