// After a storm of hostile requests the database must hold only rows the services' rules allow:
// no connection without its sealed secret and its audit entry, no address that is not https, no
// run still marked running or lease left behind once the syncs have drained.
import { checkHttpsUrl } from "@hyperlens/hyper-http";
import { expect } from "vitest";
import type { AppServices } from "../../context.ts";
import {
  MAX_SYNC_INTERVAL_SECONDS,
  MIN_SYNC_INTERVAL_SECONDS,
} from "../../services/connections.ts";

/** Fails the test, naming the row, when a row breaks a rule of the connection and user services. */
export async function expectConsistentDatabase(services: AppServices): Promise<void> {
  const { prisma, secrets } = services;
  const connections = await prisma.connection.findMany({ include: { secret: true } });
  const created = new Set(
    (
      await prisma.auditLog.findMany({
        where: { action: "connection.create" },
        select: { targetId: true },
      })
    ).map((a) => a.targetId),
  );
  for (const c of connections) {
    const row = `connection ${JSON.stringify(c.name)} (${c.id})`;
    expect(checkHttpsUrl(c.baseUrl), `${row}: address ${c.baseUrl}`).toBeNull();
    expect(c.name, row).toBe(c.name.trim());
    expect(c.name.length, row).toBeGreaterThan(0);
    expect(c.name.length, row).toBeLessThanOrEqual(100);
    expect(c.username.trim(), row).not.toBe("");
    expect(c.syncIntervalSeconds, row).toBeGreaterThanOrEqual(MIN_SYNC_INTERVAL_SECONDS);
    expect(c.syncIntervalSeconds, row).toBeLessThanOrEqual(MAX_SYNC_INTERVAL_SECONDS);
    // TRAP: docs/behaviour.md §1 — a connection saved without its secret (or with one sealed for another row) cannot log in.
    expect(c.secret, `${row} has no secret`).not.toBeNull();
    if (c.secret) expect(() => secrets.open(c.secret?.ciphertext ?? "", c.id), row).not.toThrow();
    expect(created.has(c.id), `${row} has no audit entry`).toBe(true);
  }
  const users = await prisma.user.findMany();
  for (const user of users) {
    expect(user.username, `user ${user.id}`).toMatch(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/);
    expect(user.passwordHash, `user ${user.username}`).not.toBe("");
  }
  const tokens = await prisma.apiToken.findMany({ include: { createdBy: true } });
  for (const t of tokens) {
    const creator = t.createdBy;
    if (creator.isAdmin) continue;
    for (const cap of t.capabilities)
      expect(creator.capabilities, `token ${t.name} holds ${cap}`).toContain(cap);
  }
  expect(await prisma.syncRun.count({ where: { outcome: "RUNNING" } })).toBe(0);
  expect(await prisma.syncLease.count()).toBe(0);
}
