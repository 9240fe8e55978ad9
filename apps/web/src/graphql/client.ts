// One urql client: queries and mutations over HTTP, subscriptions over graphql-ws on the same
// origin and path, authenticated by the session cookie the browser sends with the upgrade.
import { createClient as createWsClient } from "graphql-ws";
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from "urql";

/** The WebSocket address of the API on this page's origin. */
export function websocketUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/graphql`;
}

/** Builds the client the whole app shares. */
export function createGraphqlClient(): Client {
  const ws = createWsClient({ url: websocketUrl(window.location), lazy: true, retryAttempts: 5 });
  return new Client({
    url: "/graphql",
    // The API refuses GET requests without a CSRF header; POST with a JSON body is always allowed.
    preferGetMethod: false,
    fetchOptions: { credentials: "same-origin" },
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({
            unsubscribe: ws.subscribe({ ...request, query: request.query ?? "" }, sink),
          }),
        }),
      }),
    ],
  });
}
