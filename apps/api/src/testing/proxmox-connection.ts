// A saved Proxmox connection to a stand-in: the set-up every end-to-end sync test starts from.
import type { Connection } from "@hyperlens/db";
import { DEFAULT_TOKEN } from "@hyperlens/standins";
import type { AppServices } from "../context.ts";
import { type ConnectionInput, saveConnection } from "../services/connections.ts";

/**
 * Saves (through the connection service, secret encrypted) a Proxmox connection named `name` to
 * the stand-in at `standin`, signing in with the stand-in's default API token. `more` sets further
 * fields, e.g. the sync interval or whether the connection is active.
 */
export function saveProxmoxConnection(
  services: Pick<AppServices, "prisma" | "secrets">,
  standin: { url: string; caPem: string },
  name: string,
  more: Partial<ConnectionInput> = {},
): Promise<Connection> {
  const [username, tokenId] = DEFAULT_TOKEN.id.split("!");
  return saveConnection(
    services.prisma,
    services.secrets,
    "PROXMOX",
    {
      name,
      url: standin.url,
      caPem: standin.caPem,
      username: username ?? "",
      tokenId,
      secret: DEFAULT_TOKEN.secret,
      ...more,
    },
    null,
  );
}
