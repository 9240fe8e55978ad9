import { describe, expect, it } from "vitest";
import { closedAfterEach } from "../testing/closed-after-each.ts";
import { call, header } from "../testing/https-client.ts";
import {
  createProxmoxStandin,
  DEFAULT_USER,
  type ProxmoxStandin,
  TICKET_LIFETIME_MS,
} from "./server.ts";

const start = closedAfterEach(createProxmoxStandin);

function login(s: ProxmoxStandin, body: string) {
  return call(`${s.apiUrl}/access/ticket`, {
    method: "POST",
    ca: s.caPem,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
}

async function ticketOf(s: ProxmoxStandin, password = DEFAULT_USER.password) {
  const response = await login(s, `username=root@pam&password=${encodeURIComponent(password)}`);
  expect(response.status).toBe(200);
  return (JSON.parse(response.body) as { data: { ticket: string; CSRFPreventionToken: string } })
    .data;
}

function withCookie(s: ProxmoxStandin, ticket: string, path = "/nodes") {
  return call(`${s.apiUrl}${path}`, {
    ca: s.caPem,
    headers: { Cookie: `PVEAuthCookie=${encodeURIComponent(ticket)}` },
  });
}

describe("authentication works like pveproxy's", () => {
  it("accepts a configured API token and refuses a malformed or unknown one", async () => {
    const s = await start({ tokens: [{ id: "inv@pve!ro", secret: "abc-123", role: "auditor" }] });
    const as = (authorization: string) =>
      call(`${s.apiUrl}/nodes`, { ca: s.caPem, headers: { Authorization: authorization } });
    expect((await as("PVEAPIToken=inv@pve!ro=abc-123")).status).toBe(200);
    for (const bad of [
      "PVEAPIToken=inv@pve!ro=wrong",
      "PVEAPIToken=inv@pve=abc-123",
      "PVEAPIToken=other@pve!ro=abc-123",
    ]) {
      const response = await as(bad);
      expect([response.status, response.reason, response.body]).toEqual([
        401,
        "Authentication failed!",
        "",
      ]);
    }
    expect((await as("Bearer abc")).reason).toBe("No ticket");
  });

  it("logs in with a form body and serves the ticket in the PVEAuthCookie cookie", async () => {
    const s = await start();
    const { ticket } = await ticketOf(s);
    expect((await withCookie(s, ticket)).status).toBe(200);
    expect((await withCookie(s, "PVE:root@pam:00000000::forged")).reason).toBe(
      "Authentication failed!",
    );
  });

  it("accepts the realm as a separate form field", async () => {
    const s = await start();
    expect((await login(s, "username=root&realm=pam&password=standin-password")).status).toBe(200);
  });

  it("a ticket older than two hours is refused with an empty 401; a fresh login works again", async () => {
    let now = Date.UTC(2025, 0, 1);
    const s = await start({ now: () => now });
    const { ticket } = await ticketOf(s);
    now += TICKET_LIFETIME_MS - 1000;
    expect((await withCookie(s, ticket)).status).toBe(200);
    now += 2000;
    const expired = await withCookie(s, ticket);
    expect([expired.status, expired.reason, expired.body]).toEqual([
      401,
      "Authentication failed!",
      "",
    ]);
    expect(header(expired, "Content-Type")).toBeUndefined();
    const { ticket: fresh } = await ticketOf(s);
    expect((await withCookie(s, fresh)).status).toBe(200);
  });

  it("expireAllTickets() invalidates every ticket issued so far", async () => {
    const s = await start();
    const { ticket } = await ticketOf(s);
    s.expireAllTickets();
    expect((await withCookie(s, ticket)).status).toBe(401);
  });

  it("a valid ticket posted as the password renews it", async () => {
    const s = await start();
    const { ticket } = await ticketOf(s);
    const renewed = await ticketOf(s, ticket);
    expect(renewed.ticket).not.toBe(ticket);
    expect((await withCookie(s, renewed.ticket)).status).toBe(200);
  });

  it("the ticket lifetime is configurable", async () => {
    let now = 1_000_000;
    const s = await start({ now: () => now, ticketTtlMs: 60_000 });
    const { ticket } = await ticketOf(s);
    now += 60_000;
    expect((await withCookie(s, ticket)).status).toBe(401);
  });

  it("a cookie login must send the CSRF token on non-GET requests", async () => {
    const s = await start();
    const { ticket, CSRFPreventionToken } = await ticketOf(s);
    const post = (headers: Record<string, string>) =>
      call(`${s.apiUrl}/nodes/pve1/qemu/100/status/start`, {
        method: "POST",
        ca: s.caPem,
        headers: { Cookie: `PVEAuthCookie=${encodeURIComponent(ticket)}`, ...headers },
      });
    expect((await post({})).reason).toBe("Permission denied - invalid csrf token");
    expect((await post({ CSRFPreventionToken })).status).toBe(501);
  });

  it("waits the configured delay before a 401", async () => {
    const s = await start({ authFailureDelayMs: 150 });
    const started = performance.now();
    await call(`${s.apiUrl}/nodes`, { ca: s.caPem });
    // A lower bound only: the delay exists; how long the machine took on top does not matter.
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("serves TLS that verifies against the exposed CA and fails without it", async () => {
    const s = await start();
    expect((await call(`${s.url}/api2/json/version`, { ca: s.caPem })).status).toBe(401);
    await expect(call(`${s.url}/api2/json/version`)).rejects.toThrow(/certificate/i);
    const localhost = s.url.replace("127.0.0.1", "localhost");
    expect((await call(`${localhost}/api2/json/version`, { ca: s.caPem })).status).toBe(401);
  });
});
