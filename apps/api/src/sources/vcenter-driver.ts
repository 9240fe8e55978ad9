import { createVcenterClient, readVcenterInventory } from "@hyperlens/vcenter";
import { httpOptionsFor, type SourceDriver } from "./source-driver.ts";

/** vCenter: a session per Test or sync, always deleted afterwards (SPEC §5). */
export const vcenterDriver: SourceDriver = {
  open(connection, secret, context) {
    const { logger } = context;
    const client = createVcenterClient({
      http: httpOptionsFor(connection, context),
      credentials: { username: connection.username, password: secret },
      logger,
    });
    return {
      test: () =>
        client.withSession(async () => {
          const [session, hosts] = await Promise.all([client.sessionInfo(), client.hosts()]);
          const online = hosts.filter((h) => h.connectionState === "CONNECTED").length;
          return {
            summary: `Connected to vCenter as ${session.user ?? connection.username}; ${hosts.length} host(s) visible, ${online} connected.`,
          };
        }),
      read: (emit, signal) =>
        readVcenterInventory(client, {
          ...(signal ? { signal } : {}),
          onProgress: (event) => {
            if (event.type === "list") emit(event);
          },
        }),
      close: () => client.close(),
    };
  },
};
