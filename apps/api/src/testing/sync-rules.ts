// Rules every source's end-to-end sync test checks the same way, whatever the stand-in.
import type { SyncResult } from "@hyperlens/sync";
import { expect } from "vitest";
import type { AppServices } from "../context.ts";
import { testConnection } from "../services/connection-runner.ts";

/**
 * SPEC §3–§5: a guest gone after a complete read is removed; when most guests vanish at once the
 * guard fires and removes none. `guests` lists the hypervisor's guest ids, `remove` deletes one.
 */
export async function expectRemovalThenGuard(
  sync: () => Promise<SyncResult>,
  guests: () => string[],
  remove: (id: string) => void,
): Promise<void> {
  await sync();
  remove(guests()[0] ?? "");
  expect((await sync()).counts.removed).toBe(1);
  for (const id of guests().slice(0, -5)) remove(id);
  const guarded = await sync();
  expect(guarded.guardFired).toBe(true);
  expect(guarded.counts.removed).toBe(0);
}

/** Test, once the connection's address does not resolve, fails as unreachable and says `message`. */
export async function expectTestNamesUnreachable(
  services: AppServices,
  connectionId: string,
  message: string,
): Promise<void> {
  await services.prisma.connection.update({
    where: { id: connectionId },
    data: { baseUrl: "https://hypervisor.invalid" },
  });
  const result = await testConnection(services, connectionId);
  expect(result).toMatchObject({ ok: false, errorClass: "unreachable" });
  expect(result.message).toContain(message);
}
