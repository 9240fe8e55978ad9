// Demo mode (HYPERLENS_DEMO): stand-in hypervisors on loopback and connections to them, so a
// first-time user sees a realistic inventory without a Proxmox, Director or vCenter at hand.

import type { ConnectionKind } from "@hyperlens/shared";
import {
  createProxmoxStandin,
  createVcdStandin,
  createVcenterStandin,
  DEFAULT_TOKEN,
  DEFAULT_VCD_USERS,
  DEFAULT_VCENTER_USERS,
  demoCluster,
  demoDirector,
  demoVcenter,
} from "@hyperlens/standins";
import type { AppServices } from "./context.ts";
import { type ConnectionInput, saveConnection } from "./services/connections.ts";

/** The running demo hypervisors. */
export interface Demo {
  close(): Promise<void>;
}

export const DEMO_PROXMOX_NAME = "Demo Proxmox cluster";
export const DEMO_VCD_NAME = "Demo Cloud Director";
export const DEMO_VCENTER_NAME = "Demo vCenter";

async function pointDemoConnection(
  services: AppServices,
  kind: ConnectionKind,
  input: Omit<ConnectionInput, "id">,
) {
  const existing = await services.prisma.connection.findFirst({
    where: { kind, name: input.name },
  });
  await saveConnection(
    services.prisma,
    services.secrets,
    kind,
    { ...input, id: existing?.id ?? null },
    null,
    // Demo mode turns the loopback allowance on (config.ts): its stand-ins listen on loopback.
    services.targetPolicy,
  );
}

/** Starts the stand-ins and points the demo connections at them (their address changes per start). */
export async function startDemo(services: AppServices): Promise<Demo> {
  const proxmox = await createProxmoxStandin({
    cluster: demoCluster(),
    version: "9.1",
    latencyMs: 5,
  });
  const director = await createVcdStandin({ model: demoDirector(), latencyMs: 5 });
  const [username, tokenId] = DEFAULT_TOKEN.id.split("!");
  await pointDemoConnection(services, "PROXMOX", {
    name: DEMO_PROXMOX_NAME,
    url: proxmox.url,
    caPem: proxmox.caPem,
    username: username ?? "",
    tokenId,
    secret: DEFAULT_TOKEN.secret,
  });
  const provider = DEFAULT_VCD_USERS.find((u) => u.role === "provider");
  if (provider) {
    await pointDemoConnection(services, "VCD", {
      name: DEMO_VCD_NAME,
      url: director.url,
      caPem: director.caPem,
      username: `${provider.user}@${provider.org}`,
      secret: provider.password,
    });
  }
  const vcenter = await createVcenterStandin({ model: demoVcenter(), latencyMs: 5 });
  const [vcenterUser] = DEFAULT_VCENTER_USERS;
  if (vcenterUser) {
    await pointDemoConnection(services, "VCENTER", {
      name: DEMO_VCENTER_NAME,
      url: vcenter.url,
      caPem: vcenter.caPem,
      username: vcenterUser.user,
      secret: vcenterUser.password,
    });
  }
  services.logger.info(
    { proxmox: proxmox.url, director: director.url, vcenter: vcenter.url },
    "Demo stand-ins running",
  );
  return {
    close: async () => {
      await Promise.all([proxmox.close(), director.close(), vcenter.close()]);
    },
  };
}
