// Rules every source's end-to-end sync file proves the same way, whatever the stand-in.
import type { SyncResult } from "@hyperlens/sync";
import { expect, it } from "vitest";
import type { AppServices } from "../context.ts";
import { testConnection } from "../services/connection-test.ts";

/** A connection to a stand-in as the rules use it (see eachTestConnectedTo). */
export interface ConnectedStandin {
  readonly services: AppServices;
  readonly connectionId: string;
  readonly standin: { openSessions: number };
  readonly app: { logLines: string[] };
  sync(): Promise<SyncResult>;
}

/** What the rules need to know of a source besides its connection. */
export interface SessionSource {
  /** The ids of the guests on the hypervisor now. */
  guests(): string[];
  /** Deletes a guest from the hypervisor. */
  remove(id: string): void;
  /** The password the connection logs in with; it must show nowhere. */
  password: string;
  /** What Test says when the server cannot be reached. */
  unreachable: string;
}

/**
 * The end-to-end rules of a source that logs in per session (Director, vCenter), as one test each:
 * removal after a complete read and the guard (docs/behaviour.md §3–§5), Test and sync logging out without
 * showing the password, and an address that does not resolve named as unreachable.
 */
export function itKeepsTheSessionRules(connected: ConnectedStandin, source: SessionSource): void {
  it("removes a VM that is gone after a complete read, and the guard holds when most vanish", async () => {
    const { sync } = connected;
    await sync();
    source.remove(source.guests()[0] ?? "");
    expect((await sync()).counts.removed).toBe(1);
    for (const id of source.guests().slice(0, -5)) source.remove(id);
    const guarded = await sync();
    expect(guarded.guardFired).toBe(true);
    expect(guarded.counts.removed).toBe(0);
  });

  it("Test logs in and out and never shows or logs the password", async () => {
    const result = await testConnection(connected.services, connected.connectionId);
    expect(result.ok).toBe(true);
    expect(connected.standin.openSessions).toBe(0);
    await connected.sync();
    expect(connected.standin.openSessions).toBe(0);
    expect(connected.app.logLines.join("\n")).not.toContain(source.password);
    expect(JSON.stringify(result)).not.toContain(source.password);
  });

  it("Test names an unreachable server as unreachable", async () => {
    await connected.services.prisma.connection.update({
      where: { id: connected.connectionId },
      data: { baseUrl: "https://hypervisor.invalid" },
    });
    const result = await testConnection(connected.services, connected.connectionId);
    expect(result).toMatchObject({ ok: false, errorClass: "unreachable" });
    expect(result.message).toContain(source.unreachable);
  });
}
