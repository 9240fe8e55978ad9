import {
  connectionPrivilegeWarning,
  createProxmoxClient,
  listProxmoxGuests,
  readProxmoxGuests,
  readProxmoxInventory,
} from "@hyperlens/proxmox";
import { serverText } from "@hyperlens/shared";
import {
  httpOptionsFor,
  readOptionsFor,
  requestsPerNodeOf,
  type SourceDriver,
} from "./source-driver.ts";

/** Proxmox VE: API token or user + password (ticket) login; read-only. */
export const proxmoxDriver: SourceDriver = {
  hasLightPoll: true,
  open(connection, secret, context) {
    const client = createProxmoxClient({
      http: httpOptionsFor(connection, context),
      requestsPerNode: requestsPerNodeOf(connection),
      auth: connection.tokenId
        ? { kind: "token", tokenId: `${connection.username}!${connection.tokenId}`, secret }
        : { kind: "password", username: connection.username, password: secret },
    });
    return {
      test: async () => {
        const nodes = await client.nodes();
        const version = await client.version().catch(() => null);
        const online = nodes.filter((n) => n.status === "online").length;
        const permissions = await client.permissions().catch(() => null);
        return {
          summary: serverText("connectionTestProxmox", {
            version: version?.version ?? "unknown",
            nodes: nodes.length,
            online,
          }),
          privilegeWarning: permissions ? connectionPrivilegeWarning(permissions, version) : null,
        };
      },
      read: (signal) => readProxmoxInventory(client, readOptionsFor(signal)),
      lightPoll: {
        list: () => listProxmoxGuests(client),
        readGuests: (guests, signal) => readProxmoxGuests(client, guests, signal),
      },
      close: () => client.close(),
    };
  },
};
