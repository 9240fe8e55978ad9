import type { Viewer } from "../app.tsx";
import { IdentityProvidersSection } from "../sso/identity-providers-section.tsx";
import { ApiTokensPage } from "./api-tokens-page.tsx";
import { UsersPage } from "./users-page.tsx";

/** The API tokens and users pages (with identity providers below the users). */
export function AccountRoutes(props: { page: "tokens" | "users"; viewer: Viewer }) {
  if (props.page === "tokens") return <ApiTokensPage viewer={props.viewer} />;
  return (
    <>
      <UsersPage />
      <IdentityProvidersSection />
    </>
  );
}
