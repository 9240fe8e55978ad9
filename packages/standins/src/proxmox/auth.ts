import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** What a credential may do: `auditor` is the PVEAuditor role on `/`, `admin` is Administrator. */
export type ProxmoxRole = "auditor" | "admin";

/** An API token the stand-in accepts. */
export interface ProxmoxTokenSpec {
  /** `USER@REALM!TOKENID`, e.g. `hyperlens@pve!inventory`. */
  id: string;
  secret: string;
  role: ProxmoxRole;
}

/** A user that may log in with `POST /access/ticket`. */
export interface ProxmoxUserSpec {
  /** `USER@REALM`, e.g. `root@pam`. */
  username: string;
  password: string;
  role: ProxmoxRole;
}

/** Who a request authenticated as. */
export interface Principal {
  userid: string;
  role: ProxmoxRole;
  via: "token" | "ticket";
  /** CSRF token of the ticket (cookie logins must send it on non-GET requests). */
  csrf?: string;
}

/** Authentication outcome; the failure reasons are pveproxy's 401 status texts. */
export type AuthResult =
  | { ok: true; principal: Principal }
  | { ok: false; reason: "No ticket" | "Authentication failed!" };

/** A successful ticket login. */
export interface TicketGrant {
  username: string;
  role: ProxmoxRole;
  ticket: string;
  csrf: string;
}

interface IssuedTicket {
  userid: string;
  role: ProxmoxRole;
  csrf: string;
  issuedAt: number;
  generation: number;
}

/** Options of {@link ProxmoxAuth}. */
export interface ProxmoxAuthOptions {
  tokens: ProxmoxTokenSpec[];
  users: ProxmoxUserSpec[];
  ticketTtlMs: number;
  now: () => number;
}

/**
 * Token and ticket authentication as pve-access-control does it: tokens in the
 * `Authorization: PVEAPIToken=USER@REALM!TOKENID=SECRET` header, tickets from
 * `POST /access/ticket` in the `PVEAuthCookie` cookie, valid for two hours.
 */
export class ProxmoxAuth {
  readonly #tickets = new Map<string, IssuedTicket>();
  #generation = 0;

  constructor(readonly options: ProxmoxAuthOptions) {}

  /** Check a login form (`username`, `password`, optional `realm`); a valid ticket as password renews it. */
  login(form: URLSearchParams): TicketGrant | undefined {
    const realm = form.get("realm");
    const rawUser = form.get("username") ?? "";
    const username = rawUser.includes("@") || !realm ? rawUser : `${rawUser}@${realm}`;
    const password = form.get("password") ?? "";
    const user = this.options.users.find((candidate) => candidate.username === username);
    if (!user) return undefined;
    const renewing = this.#valid(password);
    const isRenewal = renewing !== undefined && renewing.userid === username;
    if (!isRenewal && user.password !== password) return undefined;
    return this.#issue(username, user.role);
  }

  /** Authenticate a request from its headers. */
  authenticate(headers: IncomingHttpHeaders): AuthResult {
    const authorization = headers.authorization;
    if (authorization?.startsWith("PVEAPIToken")) return this.#token(authorization);
    const ticket = readCookie(headers.cookie, "PVEAuthCookie");
    if (ticket === undefined) return { ok: false, reason: "No ticket" };
    const issued = this.#valid(ticket);
    if (!issued) return { ok: false, reason: "Authentication failed!" };
    return {
      ok: true,
      principal: { userid: issued.userid, role: issued.role, via: "ticket", csrf: issued.csrf },
    };
  }

  /** Make every ticket issued so far invalid, as if two hours had passed. */
  expireAllTickets(): void {
    this.#generation += 1;
  }

  #token(header: string): AuthResult {
    // pveproxy accepts "PVEAPIToken=" and "PVEAPIToken " and splits USER@REALM!TOKENID=SECRET.
    const match = /^PVEAPIToken[= ]([^\s!]+![^\s=]+)=(\S+)$/.exec(header);
    if (!match) return { ok: false, reason: "Authentication failed!" };
    const [, id, secret] = match;
    const token = this.options.tokens.find(
      (candidate) => candidate.id === id && candidate.secret === secret,
    );
    if (!token) return { ok: false, reason: "Authentication failed!" };
    return { ok: true, principal: { userid: token.id, role: token.role, via: "token" } };
  }

  #valid(ticket: string): IssuedTicket | undefined {
    const issued = this.#tickets.get(ticket);
    if (!issued) return undefined;
    const expired =
      issued.generation !== this.#generation ||
      this.options.now() - issued.issuedAt >= this.options.ticketTtlMs;
    return expired ? undefined : issued;
  }

  #issue(userid: string, role: ProxmoxRole): TicketGrant {
    const issuedAt = this.options.now();
    const stamp = Math.floor(issuedAt / 1000)
      .toString(16)
      .toUpperCase()
      .padStart(8, "0");
    const ticket = `PVE:${userid}:${stamp}::${randomBytes(192).toString("base64")}`;
    const csrf = `${stamp}:${randomBytes(32).toString("base64").replace(/=+$/, "")}`;
    this.#tickets.set(ticket, { userid, role, csrf, issuedAt, generation: this.#generation });
    return { username: userid, role, ticket, csrf };
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) {
      const value = rest.join("=");
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}
