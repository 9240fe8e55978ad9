import { createVcdClient, createVcdLightPoll, readVcdInventory } from "@hyperlens/vcd";
import { readOptionsFor, type SourceDriver, sessionClientOptions } from "./source-driver.ts";

/** VMware Cloud Director: a session per Test or sync, always logged out (docs/behaviour.md §4). */
export const vcdDriver: SourceDriver = {
  hasLightPoll: true,
  open(connection, secret, context) {
    const client = createVcdClient(sessionClientOptions(connection, secret, context));
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
      read: (signal) => readVcdInventory(client, readOptionsFor(signal)),
      lightPoll: createVcdLightPoll(client),
      close: () => client.close(),
    };
  },
};
