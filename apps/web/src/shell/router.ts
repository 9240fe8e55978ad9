// Client-side routes on the History API; the API serves index.html for any unknown path.
import { useSyncExternalStore } from "react";

/** The pages of the app. */
export type Page =
  | "servers"
  | "integrations"
  | "settings"
  | "tokens"
  | "users"
  | "groups"
  | "webhooks"
  | "sessions"
  | "password"
  | "help";

/** Every page, in the order of the navigation; the browser tests visit each (docs/behaviour.md §9.55). */
export const PAGES: readonly Page[] = [
  "servers",
  "integrations",
  "settings",
  "tokens",
  "users",
  "groups",
  "webhooks",
  "sessions",
  "password",
  "help",
];

/**
 * The page, its subpage (`/servers/changes`) and query of a location; unknown paths show the
 * Servers page. `isNamed` tells a page
 * the address asks for by name from the one shown by default (the root, an unknown path).
 */
export function parseRoute(
  pathname: string,
  search: string,
): { page: Page; subpage: string | undefined; query: URLSearchParams; isNamed: boolean } {
  const [first = "", subpage] = pathname.split("/").filter(Boolean);
  const named = PAGES.find((p) => p === first);
  return {
    page: named ?? "servers",
    subpage: named ? subpage : undefined,
    query: new URLSearchParams(search),
    isNamed: !!named,
  };
}

const listeners = new Set<() => void>();
const snapshot = () => `${window.location.pathname}${window.location.search}`;

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("popstate", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("popstate", listener);
  };
}

/** Goes to a path inside the app without reloading. */
export function navigate(path: string, options: { replace?: boolean } = {}) {
  if (options.replace) window.history.replaceState(null, "", path);
  else window.history.pushState(null, "", path);
  for (const listener of listeners) listener();
}

/** The current route; re-renders on navigation. */
export function useRoute() {
  const href = useSyncExternalStore(subscribe, snapshot, () => "/");
  const url = new URL(href, "http://local");
  return parseRoute(url.pathname, url.search);
}
