import { createVcdClient, readVcdInventory } from "@hyperlens/vcd";
import { httpOptionsFor, type SourceDriver } from "./source-driver.ts";

/** VMware Cloud Director: a session per Test or sync, always logged out (SPEC §4). */
export const vcdDriver: SourceDriver = {
  open(connection, secret, context) {
    const { logger } = context;
    const client = createVcdClient({
      http: httpOptionsFor(connection, context),
      credentials: { username: connection.username, password: secret },
      logger,
    });
    return {
      test: () =>
        client.withSession(async (session) => {
          const first = await client.vmQueryPage(1, 1);
          const who = client.isProvider
            ? "provider administrator"
            : `organization ${session.orgName ?? ""}`.trim();
          return {
            summary: `Connected to Cloud Director (API ${client.apiVersion}) as ${who}; ${first.total} VM(s) visible.`,
          };
        }),
      read: (emit, signal) =>
        readVcdInventory(client, {
          ...(signal ? { signal } : {}),
          onProgress: (event) => {
            if (event.type === "list") emit(event);
          },
        }),
      close: () => client.close(),
    };
  },
};
