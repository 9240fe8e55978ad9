import type { Viewer } from "../app.tsx";
import { type MessageKey, t } from "../i18n/i18n.ts";
import { AppLink } from "./app-link.tsx";
import type { Page } from "./router.ts";

/** The pages this viewer may open; the API enforces the same rules. */
export function visiblePages(viewer: Omit<Viewer, "mustEnrolTwoFactor">): Page[] {
  const can = (c: Viewer["capabilities"][number]) => viewer.capabilities.includes(c);
  const pages: Page[] = [];
  if (can("VIEW_INVENTORY")) pages.push("servers", "integrations");
  if (can("VIEW_INVENTORY") || can("MANAGE_PROXMOX") || can("MANAGE_VCD") || can("MANAGE_VCENTER"))
    pages.push("settings");
  pages.push("tokens");
  if (viewer.isAdmin || can("MANAGE_USERS")) pages.push("users", "groups");
  // Webhooks send every connection's events outside Hyperlens: administrators only (§14.20).
  if (viewer.isAdmin) pages.push("webhooks");
  pages.push("sessions", "password", "help");
  return pages;
}

const LABELS: Record<Page, MessageKey> = {
  servers: "nav.servers",
  integrations: "nav.integrations",
  settings: "nav.settings",
  tokens: "nav.tokens",
  users: "nav.users",
  sessions: "nav.sessions",
  password: "nav.password",
  groups: "nav.groups",
  webhooks: "nav.webhooks",
  help: "nav.help",
};

/** The main navigation. */
export function Nav(props: { pages: readonly Page[]; current: Page }) {
  return (
    <nav aria-label={t("shell.mainNav")}>
      <ul className="nav-list">
        {props.pages.map((page) => (
          <li key={page}>
            <AppLink href={`/${page}`} aria-current={page === props.current ? "page" : undefined}>
              {t(LABELS[page])}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
