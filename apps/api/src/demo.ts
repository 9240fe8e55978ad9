// Demo mode (HYPERLENS_DEMO): stand-in hypervisors on loopback and connections to them, so a
// first-time user sees a realistic inventory without a Proxmox or Director at hand.
import { createProxmoxStandin, DEFAULT_TOKEN, demoCluster } from "@hyperlens/standins";
import type { AppServices } from "./context.ts";
import { saveConnection } from "./services/connections.ts";

/** The running demo hypervisors. */
export interface Demo {
  close(): Promise<void>;
}

export const DEMO_PROXMOX_NAME = "Demo Proxmox cluster";

/** Starts the stand-ins and points the demo connections at them (their address changes per start). */
export async function startDemo(services: AppServices): Promise<Demo> {
  const proxmox = await createProxmoxStandin({
    cluster: demoCluster(),
    version: "9.1",
    latencyMs: 5,
  });
  const existing = await services.prisma.connection.findFirst({
    where: { kind: "PROXMOX", name: DEMO_PROXMOX_NAME },
  });
  const [username, tokenId] = DEFAULT_TOKEN.id.split("!");
  await saveConnection(
    services.prisma,
    services.secrets,
    "PROXMOX",
    {
      id: existing?.id ?? null,
      name: DEMO_PROXMOX_NAME,
      url: proxmox.url,
      caPem: proxmox.caPem,
      username: username ?? "",
      tokenId,
      secret: DEFAULT_TOKEN.secret,
    },
    null,
  );
  services.logger.info({ url: proxmox.url }, "Demo Proxmox stand-in running");
  return { close: () => proxmox.close() };
}
