// A server synced from stand-ins for the inventory-export tests: the demo Proxmox cluster behind
// two connections (so every Proxmox name is borne twice), the demo Director, and an API token.
import { CAPABILITIES, type Capability } from "@hyperlens/shared";
import {
  createProxmoxStandin,
  createVcdStandin,
  type ProxmoxStandin,
  type VcdStandin,
} from "@hyperlens/standins/testing";
import { createApiToken } from "../auth/api-tokens.ts";
import { effectiveCapabilities } from "../auth/viewer.ts";
import { createUser } from "../services/users.ts";
import { syncConnection } from "../syncs/coordinator.ts";
import { saveStandinConnection } from "./standin-connections.ts";
import { startTestApp, TEST_PASSWORD, type TestApp } from "./test-app.ts";

/** The running world; `close()` stops everything it started. */
export interface InventoryWorld {
  app: TestApp;
  proxmox: ProxmoxStandin;
  director: VcdStandin;
  /** Connection ids by name. */
  connections: Record<"pve-a" | "pve-b" | "vcd", string>;
  /** An API token of an administrator, holding `capabilities` (default every one). */
  token(capabilities?: Capability[]): Promise<string>;
  /** Syncs every connection again (after the stand-ins changed). */
  syncAll(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the world and syncs it once. */
export async function startInventoryWorld(): Promise<InventoryWorld> {
  const app = await startTestApp();
  const proxmox = await createProxmoxStandin({ version: "9.1" });
  const director = await createVcdStandin();
  const { services } = app;
  const connections = {
    "pve-a": (await saveStandinConnection(services, "PROXMOX", proxmox, "pve-a")).id,
    "pve-b": (await saveStandinConnection(services, "PROXMOX", proxmox, "pve-b")).id,
    vcd: (await saveStandinConnection(services, "VCD", director, "vcd")).id,
  };
  const syncAll = async () => {
    // One after the other: pve-a's guests are seen first and keep their bare names.
    for (const id of Object.values(connections)) {
      const run = await syncConnection(services, id, { trigger: "MANUAL" }).done;
      // The demo cluster has an offline node: its lists are skipped (PARTIAL), nothing fails.
      if (run.outcome === "FAILED") throw new Error(`sync of ${id}: ${run.outcome} ${run.message}`);
    }
  };
  await syncAll();
  const admin = await createUser(
    services.prisma,
    { username: "exporter", password: TEST_PASSWORD, isAdmin: true },
    null,
  );
  const creator = {
    kind: "USER" as const,
    userId: admin.id,
    username: admin.username,
    isAdmin: true,
    capabilities: effectiveCapabilities(admin),
    scope: { all: true as const },
  };
  let tokens = 0;
  return {
    app,
    proxmox,
    director,
    connections,
    token: async (capabilities = [...CAPABILITIES]) =>
      (await createApiToken(services.prisma, creator, { name: `t${tokens++}`, capabilities }))
        .token,
    syncAll,
    async close() {
      await proxmox.close();
      await director.close();
      await app.close();
    },
  };
}
