import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Provider } from "urql";
import { App } from "./app.tsx";
import { createGraphqlClient } from "./graphql/client.ts";
import { initialLanguage, setLanguage } from "./i18n/i18n.ts";
import { applyTheme } from "./theme/theme.ts";
import "./theme/theme.css";
import "./app.css";

applyTheme();
const client = createGraphqlClient();
const root = document.getElementById("root");

void setLanguage(initialLanguage()).then(() => {
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <Provider value={client}>
        <App />
      </Provider>
    </StrictMode>,
  );
});
