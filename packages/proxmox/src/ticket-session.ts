import type { HyperClient } from "@hyperlens/hyper-http";
import { parseTicket } from "./parse/ticket.ts";

/** Tickets live 2 h on the server; renewing at 1 h 45 leaves room for a slow call and clock drift. */
export const TICKET_RENEW_AFTER_MS = 105 * 60 * 1000;

/** A password login that hands out a valid `PVEAuthCookie` ticket, logging in again when needed. */
export interface TicketSession {
  /** A ticket that is younger than the renewal age, logging in first if needed. */
  current(): Promise<string>;
  /**
   * After a 401 made with `usedTicket`: log in again unless another call already did, and return
   * the ticket to retry with.
   */
  renewAfterRejection(usedTicket: string): Promise<string>;
}

/** Options of {@link createTicketSession}. */
export interface TicketSessionOptions {
  http: HyperClient;
  username: string;
  password: string;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  clock: () => number;
  renewAfterMs: number;
}

/** Creates a {@link TicketSession}; concurrent callers share one login in flight. */
export function createTicketSession(options: TicketSessionOptions): TicketSession {
  let ticket: { value: string; obtainedAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const login = (): Promise<string> => {
    pending ??= (async () => {
      try {
        const body = new URLSearchParams({
          username: options.username,
          password: options.password,
        }).toString();
        const answer = await options.http.request({
          method: "POST",
          path: "/api2/json/access/ticket",
          purpose: "login",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        });
        const parsed = parseTicket(answer.json());
        ticket = { value: parsed.ticket, obtainedAt: options.clock() };
        return parsed.ticket;
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  };

  return {
    current() {
      if (pending) return pending;
      // TRAP: docs/behaviour.md §3 — a ticket older than 2 h is refused mid-sync; renew before it expires.
      if (!ticket || options.clock() - ticket.obtainedAt >= options.renewAfterMs) return login();
      return Promise.resolve(ticket.value);
    },
    renewAfterRejection(usedTicket) {
      if (pending) return pending;
      if (ticket && ticket.value !== usedTicket) return Promise.resolve(ticket.value);
      ticket = undefined;
      return login();
    },
  };
}
