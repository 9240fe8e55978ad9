// GraphiQL's requests, sent the way the web app's urql client sends them: POST with a JSON body
// (which the API's CSRF prevention lets through) and the session cookie of this origin;
// subscriptions over graphql-ws on the same path.
import { createGraphiQLFetcher } from "@graphiql/toolkit";
import { createClient as createWsClient } from "graphql-ws";
import { websocketUrl } from "../graphql/client.ts";

/** The fetcher GraphiQL calls for every operation. */
export function createGraphiqlFetcher(location: Pick<Location, "protocol" | "host">) {
  return createGraphiQLFetcher({
    url: "/graphql",
    fetch: (input, init) => fetch(input, { ...init, credentials: "same-origin" }),
    wsClient: createWsClient({ url: websocketUrl(location), lazy: true, retryAttempts: 5 }),
  });
}
