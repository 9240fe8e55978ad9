import { serverText } from "@hyperlens/shared";
import {
  createVcenterClient,
  createVcenterLightPoll,
  readVcenterInventory,
} from "@hyperlens/vcenter";
import { readOptionsFor, type SourceDriver, sessionClientOptions } from "./source-driver.ts";

/** vCenter: a session per Test or sync, always deleted afterwards (docs/behaviour.md §5). */
export const vcenterDriver: SourceDriver = {
  hasLightPoll: true,
  open(connection, secret, context) {
    const client = createVcenterClient(sessionClientOptions(connection, secret, context));
    return {
      test: () =>
        client.withSession(async () => {
          const [session, hosts] = await Promise.all([client.sessionInfo(), client.hosts()]);
          const online = hosts.filter((h) => h.connectionState === "CONNECTED").length;
          return {
            summary: serverText("connectionTestVcenter", {
              user: session.user ?? connection.username,
              hosts: hosts.length,
              connected: online,
            }),
          };
        }),
      read: (signal) => readVcenterInventory(client, readOptionsFor(signal)),
      lightPoll: createVcenterLightPoll(client),
      close: () => client.close(),
    };
  },
};
