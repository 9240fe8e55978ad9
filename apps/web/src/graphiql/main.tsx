// GraphiQL with the explorer plugin, built into the web app so it loads nothing from another
// origin (docs/behaviour.md §11.3). It signs in through the session cookie, as the web app does.
import "graphiql/setup-workers/vite";
import "graphiql/style.css";
import "@graphiql/plugin-explorer/style.css";
import "./graphiql-overrides.css";
import { explorerPlugin } from "@graphiql/plugin-explorer";
import { GraphiQL } from "graphiql";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createGraphiqlFetcher } from "./fetcher.ts";
import { keepTabsAsList } from "./tab-roles.ts";

const STARTING_QUERY = "{\n  viewer {\n    username\n  }\n}\n";
const plugins = [explorerPlugin()];
const fetcher = createGraphiqlFetcher(window.location);
const root = document.getElementById("graphiql");

if (root) {
  keepTabsAsList(root);
  createRoot(root).render(
    <StrictMode>
      <GraphiQL fetcher={fetcher} plugins={plugins} defaultQuery={STARTING_QUERY} />
    </StrictMode>,
  );
}
