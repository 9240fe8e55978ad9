import { serverText } from "@hyperlens/shared";
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
          return {
            summary: serverText("connectionTestVcd", {
              apiVersion: client.apiVersion,
              role: client.isProvider ? "provider" : "organization",
              org: session.orgName ?? "",
              vms: first.total ?? 0,
            }),
          };
        }),
      read: (signal) => readVcdInventory(client, readOptionsFor(signal)),
      lightPoll: createVcdLightPoll(client),
      close: () => client.close(),
    };
  },
};
