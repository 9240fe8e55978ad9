import { createVcenterClient, readVcenterInventory } from "@hyperlens/vcenter";
import { connectionSettings } from "../services/connections.ts";
import type { SourceDriver } from "./source-driver.ts";

/** vCenter: a session per Test or sync, always deleted afterwards (SPEC §5). */
export const vcenterDriver: SourceDriver = {
  open(connection, secret, { logger, correlationId, metrics }) {
    const client = createVcenterClient({
      http: {
        connectionId: connection.id,
        baseUrl: connection.baseUrl,
        verifyTls: connection.verifyTls,
        caPem: connection.caPem,
        logger,
        correlationId,
        ...(metrics ? { metrics } : {}),
        concurrency: { perConnection: connectionSettings(connection).maxConcurrentRequests },
      },
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
