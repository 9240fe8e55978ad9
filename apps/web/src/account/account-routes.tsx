import type { Viewer } from "../app.tsx";
import { ApiTokensPage } from "./api-tokens-page.tsx";
import { GroupsPage } from "./groups-page.tsx";
import { UsersPage } from "./users-page.tsx";

/** The API tokens and users pages. */
export function AccountRoutes(props: { page: "tokens" | "users" | "groups"; viewer: Viewer }) {
  if (props.page === "groups") return <GroupsPage />;
  return props.page === "tokens" ? <ApiTokensPage viewer={props.viewer} /> : <UsersPage />;
}
