// PGlite runs each statement synchronously on the event loop, and the promise it returns settles as
// a microtask: a sync that awaits ten thousand statements in a row never lets the loop turn, so
// timers, sockets and HTTP requests wait until it is done (9 s at the end of a 10,000-VM sync;
// long enough for idle keep-alive connections to be dropped under requests already sent on them).
// Every statement therefore first waits one turn of the loop. One long statement still holds it.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { PGlite } from "@electric-sql/pglite";

/** Makes every statement `client` runs wait for a turn of the event loop first. */
export function yieldBeforeEachStatement(client: PGlite): void {
  // Every query, exec and transaction of PGlite goes through this one method.
  const execute = client.execProtocolRaw.bind(client);
  client.execProtocolRaw = async (message, options) => {
    await nextTurn();
    return execute(message, options);
  };
}
