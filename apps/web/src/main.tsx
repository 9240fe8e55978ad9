import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Client, cacheExchange, fetchExchange, Provider } from "urql";
import { App } from "./app.tsx";

const client = new Client({
  url: "/graphql",
  exchanges: [cacheExchange, fetchExchange],
  fetchOptions: { credentials: "same-origin" },
});

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Provider value={client}>
        <App />
      </Provider>
    </StrictMode>,
  );
}
